import { afterAll, afterEach, beforeAll } from 'vitest'
import { setupSandboxServer } from 'petstore-sandbox/node'

export const server = setupSandboxServer({ seed: 42 })

beforeAll(() => server.listen({ onUnhandledRequest: 'error' }))
afterEach(() => server.resetHandlers()) // also resets the sandbox: data, limits, clock, scenario
afterAll(() => server.close())
