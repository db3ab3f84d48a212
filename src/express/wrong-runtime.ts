import {
  detectDomEmulation,
  isUnderJest,
  jestJsdomProblem,
} from '../node/check-environment.js'

// Resolved instead of the Express entry when a browser bundle imports
// `petstore-sandbox/express` (the exports map's "browser" condition), or under Jest's
// jsdom environment, which uses that condition although it runs in Node.
if (detectDomEmulation() === 'jsdom' && isUnderJest()) {
  throw jestJsdomProblem('petstore-sandbox/express')
}
throw new Error(
  'Failed to import "petstore-sandbox/express": it is an Express server, which needs Node.js, and this is a browser bundle. Import "petstore-sandbox/browser" (setupSandboxWorker) in the browser, or run the server with npx petstore-sandbox.',
)

// The entry's names exist, so bundlers reach the message above instead of a missing-export error.
export const createSandboxApp = undefined
export const createSandboxMiddleware = undefined
