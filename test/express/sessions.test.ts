import { defineSessionsSuite } from '../contract/sessions-suite.js'
import { startApp } from './start-app.js'

defineSessionsSuite('standalone server (petstore-sandbox/express)', async (options) => {
  const { origin, close } = await startApp({ seed: 42, ...options })
  return { origin, close }
})
