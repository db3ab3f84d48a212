import { detectDomEmulation, isUnderJest, jestJsdomProblem } from './check-environment.js'

// Resolved instead of the Node entry under the exports map's "browser" condition: a
// browser bundle, or Jest's jsdom environment (which uses that condition although it
// runs in Node). Each gets the message for its own mistake.
if (detectDomEmulation() === 'jsdom' && isUnderJest()) {
  throw jestJsdomProblem('petstore-sandbox/node')
}
throw new Error(
  'Failed to import "petstore-sandbox/node": it runs msw\'s setupServer, which needs Node.js, and this is a browser bundle. Import "petstore-sandbox/browser" (setupSandboxWorker) in the browser.',
)

// The entry's names exist, so bundlers reach the message above instead of a missing-export error.
export const setupSandboxServer = undefined
export const createSandbox = undefined
export const loadScenarioFile = undefined
export const loadFixturesFile = undefined
export const http = undefined
export const HttpResponse = undefined
