import { errorReply, fail, Failure, jsonReply, type Reply } from './api-errors.js'
import { SandboxError } from './errors.js'
import { bodyTypeRefused, CONTROL_BODY } from './media-type.js'
import { CONTROL_PATH, CONTROL_ROUTES, createRouter, listEndpoints } from './routes.js'
import type { Sandbox, World } from './sandbox-types.js'
import { StoreWriteError } from './store.js'

const routeControl = createRouter(CONTROL_ROUTES)

/** A request of the control API: where it came in, and how its body is read. */
export interface ControlRequest {
  request: Request
  url: URL
  /** Its path below `/__sandbox` ('' for the base itself). */
  rest: string
  body(): Promise<Uint8Array>
  /** The session it names, made on first use (only endpoints that act on one call it). */
  session(): World
}

/**
 * The control API (`/__sandbox`), served by every runtime through the same handlers.
 * Its errors use the API's Error body too; it never reads files.
 */
export async function handleControlRequest(
  sandbox: Sandbox,
  { request, url, rest, body, session }: ControlRequest,
): Promise<Reply> {
  const method = request.method.toUpperCase()
  const found = routeControl(method, rest === '/' ? '' : rest)
  await sandbox.ready
  // Judged before routing, as the standalone server's guard does: a body that is not
  // JSON is refused whatever the endpoint does with it. Read once, then handed on.
  const bytes = await body()
  const type = request.headers.get('content-type')
  const refused = bodyTypeRefused(type, bytes.length > 0, CONTROL_BODY)
  if (refused) return errorReply(refused)
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
        outcome = await found.route.resolve({
          sandbox,
          session,
          request,
          url,
          params: found.params,
          body: async () => bytes,
        })
    }
  } catch (error) {
    // A store that could not write a reset (a StoreWriteError is a SandboxError too).
    if (error instanceof StoreWriteError) outcome = fail('storage_failed', error.message)
    // The sandbox refusing what a valid body asks (a clock date out of its range).
    else if (error instanceof SandboxError)
      outcome = fail('validation_failed', error.message)
    else throw error
  }
  if (outcome instanceof Failure) return errorReply(outcome)
  if (outcome.status === 204)
    return { status: 204, headers: outcome.headers ?? {}, text: '' }
  return jsonReply(outcome.status, outcome.body, outcome.headers)
}
