import { setupSandboxServer } from 'petstore-sandbox/node'
import { defineFaultsSuite } from '../contract/faults-suite.js'
import { failOnUnhandledRequest } from '../msw-options.js'

// In process: msw answers a dropped request with HttpResponse.error(), so fetch rejects.
defineFaultsSuite('in-test runtime (petstore-sandbox/node)', async () => {
  const server = setupSandboxServer({ seed: 42 })
  server.listen(failOnUnhandledRequest)
  return { origin: 'https://api.example.test', close: async () => server.close() }
})
