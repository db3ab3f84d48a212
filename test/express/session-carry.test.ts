import { defineCarrySuite } from '../contract/carry-suite.js'
import { startApp } from './start-app.js'

defineCarrySuite('standalone server (petstore-sandbox/express)', async () => {
  const { origin, close } = await startApp({ seed: 42 })
  return { origin, close }
})
