import { errorReply, fail, Failure, jsonReply, type Reply } from './api-errors.js'
import { SandboxError } from './errors.js'
import { CONTROL_PATH, CONTROL_ROUTES, createRouter, listEndpoints } from './routes.js'
import type { Sandbox } from './sandbox.js'

const routeControl = createRouter(CONTROL_ROUTES)

/** A request of the control API: where it came in, and how its body is read. */
export interface ControlRequest {
  request: Request
  url: URL
  /** Its path below `/__sandbox` ('' for the base itself). */
  rest: string
  body(): Promise<Uint8Array>
}

/**
 * The control API (`/__sandbox`), served by every runtime through the same handlers.
 * Its errors use the API's Error body too; it never reads files.
 */
export async function handleControlRequest(
  sandbox: Sandbox,
  { request, url, rest, body }: ControlRequest,
): Promise<Reply> {
  const method = request.method.toUpperCase()
  const found = routeControl(method, rest === '/' ? '' : rest)
  await sandbox.ready
  let outcome
  try {
    switch (found.kind) {
      case 'not-found':
        outcome = fail(
          'not_found',
          `No control endpoint at ${url.pathname.slice(0, 100)}. The control API has ${listEndpoints(CONTROL_ROUTES, CONTROL_PATH)}.`,
        )
        break
      case 'method-not-allowed':
        outcome = fail(
          'method_not_allowed',
          `${method} is not allowed on ${url.pathname.slice(0, 100)}; allowed: ${found.allow}.`,
          { allow: found.allow },
        )
        break
      case 'route':
        outcome = await found.route.resolve({ sandbox, request, url, body })
    }
  } catch (error) {
    // The sandbox refusing what a valid body asks (a clock date out of its range).
    if (!(error instanceof SandboxError)) throw error
    outcome = fail('validation_failed', error.message)
  }
  if (outcome instanceof Failure) return errorReply(outcome)
  return jsonReply(outcome.status, outcome.body, outcome.headers)
}
