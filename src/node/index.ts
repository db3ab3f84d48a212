import { setupServer, type SetupServer } from 'msw/node'
import { attachSandbox } from '../core/attach-sandbox.js'
import { createSandbox, type Sandbox, type SandboxOptions } from '../core/sandbox.js'
import {
  assertNodeEnvironment,
  detectDomEmulation,
  mswDomWarning,
} from './check-environment.js'
import { assertSupportedMsw, readMswVersion } from './check-msw.js'
import { resolveNodeOptions, type NodeSandboxOptions } from './files.js'

assertNodeEnvironment('petstore-sandbox/node')
assertSupportedMsw('petstore-sandbox/node')
// Once per module: a known upstream failure of msw 3 in a DOM emulation, said plainly.
const domWarning =
  typeof __PETSTORE_SANDBOX_BUNDLED_MSW__ === 'undefined'
    ? mswDomWarning(readMswVersion(), detectDomEmulation())
    : undefined
if (domWarning) console.warn(domWarning)

// Defined as true by the CommonJS build (tsup.config.ts), which bundles its own msw.
declare const __PETSTORE_SANDBOX_BUNDLED_MSW__: boolean | undefined

/**
 * msw's `setupServer` over a sandbox, plus the sandbox itself. `resetHandlers()` also
 * resets the sandbox (data, windows, clock, scenario, journal), so `afterEach` needs
 * one call.
 * @see docs/getting-started.md#in-tests-petstore-sandboxnode
 */
export type SandboxServer = SetupServer & {
  readonly sandbox: Sandbox
  /** Resets msw's handlers and the sandbox; await it when the next test must see the seeded data at once. */
  resetHandlers: SetupServer['resetHandlers']
}

/**
 * Creates msw's `setupServer` over a new sandbox, for vitest or jest.
 *
 * @example
 * import { setupSandboxServer } from 'petstore-sandbox/node'
 * const server = setupSandboxServer({ seed: 42 })
 * beforeAll(() => server.listen())
 * afterEach(() => server.resetHandlers())
 * afterAll(() => server.close())
 * @see docs/getting-started.md#in-tests-petstore-sandboxnode
 */
export function setupSandboxServer(options: NodeSandboxOptions = {}): SandboxServer {
  const sandbox = createSandbox(resolveNodeOptions(options))
  return attachSandbox(setupServer(...sandbox.handlers), sandbox)
}

export { createSandbox }
export type { Sandbox, SandboxOptions, NodeSandboxOptions }
export { loadScenarioFile, loadFixturesFile } from './files.js'
export {
  createFileStore,
  type FileStore,
  type FileStoreOptions,
} from './file-store/index.js'
// msw's handler API, from the msw this entry runs on: under Jest's CommonJS the
// installed msw cannot be required (docs/getting-started.md#with-jest), so overrides come from here.
export { http, HttpResponse, delay, passthrough, bypass } from 'msw'
export {
  checkDeployment,
  DEFAULT_CHECK_TIMEOUT_MS,
  type CheckDeploymentOptions,
  type CheckPlan,
  type CheckReport,
  type CheckResult,
  type Holds,
} from '../check/check-deployment.js'
export * from '../index.js'
