import { setupSandboxServer } from 'petstore-sandbox/node'
import { defineCarrySuite } from '../contract/carry-suite.js'
import { failOnUnhandledRequest } from '../msw-options.js'

defineCarrySuite('in-test runtime (petstore-sandbox/node)', async () => {
  const server = setupSandboxServer({ seed: 42 })
  server.listen(failOnUnhandledRequest)
  return { origin: 'https://api.example.test', close: async () => server.close() }
})
