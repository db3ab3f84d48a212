import type { Sandbox } from './world/sandbox-types.js'
import { portOf } from './pipeline/sandbox-port.js'

/** What msw's `setupServer` and `setupWorker` share and the sandbox hooks into. */
interface MswSetup {
  resetHandlers(...handlers: never[]): void
  events: {
    on(
      event: 'response:mocked',
      listener: (args: {
        request: Request
        requestId: string
        response: Response
      }) => void,
    ): void
  }
}

/**
 * Gives an msw `setupServer`/`setupWorker` its sandbox, and makes `resetHandlers()` reset
 * the sandbox too (data, windows, clock, scenario, journal), so one `afterEach` call does
 * both in every runtime.
 */
export function attachSandbox<Setup extends MswSetup>(
  setup: Setup,
  sandbox: Sandbox,
): Setup & { readonly sandbox: Sandbox } {
  const port = portOf(sandbox)
  const resetMswHandlers = setup.resetHandlers.bind(setup)
  // Any mocked answer the sandbox did not give came from the user's own handlers (the
  // handlers option, or server.use() in a test): journalled as an override.
  setup.events.on('response:mocked', ({ request, requestId, response }) => {
    if (!port.answered.has(request, requestId)) {
      port.recordOverride(request, response.status)
    }
  })
  Object.defineProperty(setup, 'sandbox', { value: sandbox, enumerable: true })
  setup.resetHandlers = (...next) => {
    resetMswHandlers(...next)
    // Handlers wait for the reset to finish, so callers need not await it.
    void sandbox.reset()
  }
  return setup as Setup & { readonly sandbox: Sandbox }
}
