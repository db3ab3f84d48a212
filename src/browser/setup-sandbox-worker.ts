import { setupWorker } from 'msw/browser'
import { attachSandbox } from '../core/attach-sandbox.js'
import { createSandbox, type Sandbox, type SandboxOptions } from '../core/sandbox.js'

// Derived from the installed msw rather than named, so the types follow msw 2 and msw 3
// (msw 3 renames start options such as onUnhandledRequest to onUnhandledFrame).
type MswWorker = ReturnType<typeof setupWorker>

/**
 * The options of `worker.start()`, exactly as the installed msw defines them; the
 * sandbox adds none and changes none.
 * @see docs/getting-started.md#in-the-browser-petstore-sandboxbrowser
 */
export type SandboxWorkerStartOptions = NonNullable<Parameters<MswWorker['start']>[0]>

/**
 * msw's `setupWorker` over a sandbox, plus the sandbox itself. `resetHandlers()` also
 * resets the sandbox (data, windows, clock, scenario, journal), as on the Node side.
 * @see docs/getting-started.md#in-the-browser-petstore-sandboxbrowser
 */
export type SandboxWorker = MswWorker & {
  readonly sandbox: Sandbox
  /** Resets msw's handlers and the sandbox. */
  resetHandlers: MswWorker['resetHandlers']
}

/**
 * Creates msw's `setupWorker` over a new sandbox; call `start()` with msw's own options.
 *
 * @example
 * // Once: npx msw init public --no-save
 * import { setupSandboxWorker } from 'petstore-sandbox/browser'
 * const worker = setupSandboxWorker({ seed: 42 })
 * await worker.start({
 *   serviceWorker: { url: '/mockServiceWorker.js' },
 *   onUnhandledRequest: 'bypass', // msw 3: onUnhandledFrame: 'bypass'
 * })
 * await fetch('/v1/pets', { headers: { Authorization: 'Bearer sandbox-free-key' } })
 * @see docs/getting-started.md#in-the-browser-petstore-sandboxbrowser
 */
export function setupSandboxWorker(options: SandboxOptions = {}): SandboxWorker {
  const sandbox = createSandbox(options)
  return attachSandbox(setupWorker(...sandbox.handlers), sandbox)
}
