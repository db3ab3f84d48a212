// The sandbox in the Next.js server process (server components, route handlers, server
// actions): msw's setupServer over a sandbox, started by instrumentation.ts.
import { setupSandboxServer } from 'petstore-sandbox/node'

export const server = setupSandboxServer({ seed: 42 })
