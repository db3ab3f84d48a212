import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterAll, afterEach, beforeAll, expect, test, vi } from 'vitest'
import { setupSandboxServer } from 'petstore-sandbox/node'
import { failOnUnhandledRequest, mswMajor } from '../msw-options.js'

// The tests listen with failOnUnhandledRequest so a request the sandbox does not answer
// fails the test instead of leaving the process. msw 3 ignores msw 2's option name, so
// this proves, on whichever msw is installed, that the option really is the one msw reads:
// the unhandled request goes to a real local server that counts what reaches it.

let reached = 0
const network: Server = createServer((_request, response) => {
  reached += 1
  response.end('reached the network')
})
let elsewhere: string

const server = setupSandboxServer({ seed: 42 })
const printed = vi.spyOn(console, 'error').mockImplementation(() => {})

beforeAll(async () => {
  await new Promise<void>((resolve) => network.listen(0, '127.0.0.1', resolve))
  elsewhere = `http://127.0.0.1:${(network.address() as AddressInfo).port}/other`
  server.listen(failOnUnhandledRequest)
})
afterEach(async () => {
  await server.resetHandlers()
  printed.mockClear()
})
afterAll(async () => {
  server.close()
  printed.mockRestore()
  await new Promise<void>((resolve) => network.close(() => resolve()))
})

test(`msw ${mswMajor}: a request outside /v1 and /__sandbox fails and never reaches the network`, async () => {
  const option = mswMajor === 3 ? 'onUnhandledFrame' : 'onUnhandledRequest'
  const error: unknown = await fetch(elsewhere).then(
    (response) => `a ${response.status} response`,
    (rejection: unknown) => rejection,
  )
  expect(error).toBeInstanceOf(Error)
  // msw 2 rejects the fetch with its own error; msw 3 with Node's TypeError "fetch
  // failed", whose cause is msw's error.
  expect(mswMajor === 3 ? (error as Error).cause : error).toMatchObject({
    name: 'InternalError',
    message: `[MSW] Cannot bypass a request when using the "error" strategy for the "${option}" option.`,
  })
  expect(reached).toBe(0)
  expect(printed.mock.calls.flat().join(' ')).toContain(`GET ${elsewhere}`)
})

test(`msw ${mswMajor}: the sandbox still answers its own paths`, async () => {
  const response = await fetch('https://api.example.test/v1/pets?limit=1', {
    headers: { authorization: 'Bearer sandbox-free-key' },
  })
  expect(response.status).toBe(200)
  expect(await response.json()).toHaveLength(1)
  expect(printed).not.toHaveBeenCalled()
})
