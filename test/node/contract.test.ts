import { setupSandboxServer } from 'petstore-sandbox/node'
import { defineContractSuite } from '../contract/suite.js'
import { failOnUnhandledRequest } from '../msw-options.js'

// The in-test runtime: msw intercepts fetch in this process, no port, no network.
defineContractSuite('in-test runtime (petstore-sandbox/node)', async () => {
  const server = setupSandboxServer({ seed: 42 })
  server.listen(failOnUnhandledRequest)
  return { origin: 'https://api.example.test', close: async () => server.close() }
})
