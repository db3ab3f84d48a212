// Resolved instead of the Node entry when a browser bundle imports `petstore-sandbox/node`
// (the exports map's "browser" condition), so the mistake is named at the door.
throw new Error(
  'Failed to import "petstore-sandbox/node": it runs msw\'s setupServer, which needs Node.js, and this is a browser bundle. Import "petstore-sandbox/browser" (setupSandboxWorker) in the browser.',
)

// The entry's names exist, so bundlers reach the message above instead of a missing-export error.
export const setupSandboxServer = undefined
export const createSandbox = undefined
export const loadScenarioFile = undefined
export const loadFixturesFile = undefined
