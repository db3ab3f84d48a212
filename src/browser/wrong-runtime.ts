// Resolved instead of the browser entries (`petstore-sandbox/browser` and
// `petstore-sandbox/browser/inspector`) when Node imports them (the exports map's "node"
// condition), so the mistake is named at the door.
throw new Error(
  'Failed to import "petstore-sandbox/browser": it runs msw\'s setupWorker in a browser, and this is Node.js. Import "petstore-sandbox/node" for tests (setupSandboxServer) or "petstore-sandbox/express" for a server (createSandboxApp).',
)

// The entries' names exist, so bundlers reach the message above instead of a missing-export error.
export const setupSandboxWorker = undefined
export const createSandbox = undefined
export const openInspector = undefined
