import { defineDefinedScenariosSuite } from '../contract/defined-scenarios-suite.js'
import { defineOddRequestsSuite } from '../contract/odd-requests-suite.js'
import { defineReportSuite } from '../contract/report-suite.js'
import { defineRequestIdsSuite } from '../contract/request-ids-suite.js'
import { defineContractSuite } from '../contract/suite.js'
import { startApp } from './start-app.js'

// The standalone server over real HTTP: the same checks as the in-test runtime.
const start = async () => {
  const { origin, close } = await startApp({ seed: 42 })
  return { origin, close }
}
defineContractSuite('standalone server (petstore-sandbox/express)', start)
defineOddRequestsSuite('standalone server (petstore-sandbox/express)', start)
defineRequestIdsSuite('standalone server (petstore-sandbox/express)', start)
defineReportSuite('standalone server (petstore-sandbox/express)', start)
defineDefinedScenariosSuite('standalone server (petstore-sandbox/express)', start)
