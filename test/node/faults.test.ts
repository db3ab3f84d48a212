import { getResponse } from 'msw'
import { createSandbox } from 'petstore-sandbox'
import { setupSandboxServer } from 'petstore-sandbox/node'
import { expect, test } from 'vitest'
import { defineFaultsSuite } from '../contract/faults-suite.js'
import { failOnUnhandledRequest } from '../msw-options.js'

// In process: msw answers a dropped request with HttpResponse.error(), so fetch rejects.
defineFaultsSuite('in-test runtime (petstore-sandbox/node)', async () => {
  const server = setupSandboxServer({ seed: 42 })
  server.listen(failOnUnhandledRequest)
  return { origin: 'https://api.example.test', close: async () => server.close() }
})

test('a dropped request waits no latency: the connection fails at once', async () => {
  const sandbox = createSandbox({ seed: 42, scenario: 'flaky-network', latency: 5000 })
  const started = performance.now()
  // Seed 42 drops the 1st request of the session "writer" (test/contract/faults-suite.ts).
  const response = await getResponse(
    sandbox.handlers,
    new Request('https://api.example.test/v1/pets', {
      headers: {
        authorization: 'Bearer sandbox-free-key',
        'x-sandbox-session': 'writer',
      },
    }),
  )
  expect(response?.type).toBe('error')
  expect(performance.now() - started).toBeLessThan(1000)
  expect(sandbox.session('writer').journal.recent()[0]).toMatchObject({
    status: 0,
    dropped: true,
  })
})
