import { setupSandboxServer } from 'petstore-sandbox/node'
import { defineDefinedScenariosSuite } from '../contract/defined-scenarios-suite.js'
import { defineOddRequestsSuite } from '../contract/odd-requests-suite.js'
import { defineReportSuite } from '../contract/report-suite.js'
import { defineRequestIdsSuite } from '../contract/request-ids-suite.js'
import { defineContractSuite } from '../contract/suite.js'
import { failOnUnhandledRequest } from '../msw-options.js'

// The in-test runtime: msw intercepts fetch in this process, no port, no network.
const start = async () => {
  const server = setupSandboxServer({ seed: 42 })
  server.listen(failOnUnhandledRequest)
  return { origin: 'https://api.example.test', close: async () => server.close() }
}
defineContractSuite('in-test runtime (petstore-sandbox/node)', start)
defineOddRequestsSuite('in-test runtime (petstore-sandbox/node)', start)
defineRequestIdsSuite('in-test runtime (petstore-sandbox/node)', start)
defineReportSuite('in-test runtime (petstore-sandbox/node)', start)
defineDefinedScenariosSuite('in-test runtime (petstore-sandbox/node)', start)
