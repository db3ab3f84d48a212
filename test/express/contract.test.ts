import { defineContractSuite } from '../contract/suite.js'
import { startApp } from './start-app.js'

// The standalone server over real HTTP: the same checks as the in-test runtime.
defineContractSuite('standalone server (petstore-sandbox/express)', async () => {
  const { origin, close } = await startApp({ seed: 42 })
  return { origin, close }
})
