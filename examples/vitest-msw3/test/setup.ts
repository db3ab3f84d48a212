import { afterAll, afterEach, beforeAll } from 'vitest'
import { setupSandboxServer } from 'petstore-sandbox/node'

export const server = setupSandboxServer({ seed: 42 })

// msw 3 names msw 2's onUnhandledRequest onUnhandledFrame.
beforeAll(() => server.listen({ onUnhandledFrame: 'error' }))
afterEach(() => server.resetHandlers()) // also resets the sandbox: data, limits, clock, scenario
afterAll(() => server.close())
