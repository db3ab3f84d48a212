import { setupSandboxServer } from 'petstore-sandbox/node'
import { defineSessionsSuite } from '../contract/sessions-suite.js'
import { failOnUnhandledRequest } from '../msw-options.js'

defineSessionsSuite('in-test runtime (petstore-sandbox/node)', async (options) => {
  const server = setupSandboxServer({ seed: 42, ...options })
  server.listen(failOnUnhandledRequest)
  return { origin: 'https://api.example.test', close: async () => server.close() }
})
