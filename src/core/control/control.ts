import type { SandboxWorld } from '../world/world.js'
import { errorReply, Failure } from '../http/api-errors.js'
import type { JournalEntry } from '../coach/journal.js'
import { bodyTypeRefused, CONTROL_BODY } from '../http/media-type.js'
import { jsonReply, type Reply } from '../http/reply.js'
import { answerRoute } from '../http/route-outcome.js'
import { CONTROL_PATH } from './control-call.js'
import { CONTROL_ROUTES } from './routes.js'
import { createRouter, listEndpoints } from '../http/router.js'
import type { Sandbox } from '../world/sandbox-types.js'
import type { CarryingInternals } from '../world/session-carry.js'

const routeControl = createRouter(CONTROL_ROUTES)

/** A request of the control API: where it came in, and how its body is read. */
export interface ControlRequest {
  request: Request
  url: URL
  /** Its path below `/__sandbox` ('' for the base itself). */
  rest: string
  body(): Promise<Uint8Array>
  /** The session it names, made on first use (only endpoints that act on one call it). */
  session(): SandboxWorld
  /** A journal entry by request id, from whichever session holds it. */
  findRequest(id: number): JournalEntry | undefined
  /** How the sandbox carries sessions out and in (the export, the HAR, an import). */
  carrying: CarryingInternals
  /** Room for a large answer, before it is built (HandleInit `reserve`). */
  reserve?: (bytes: number) => Failure | undefined
}

/**
 * The control API (`/__sandbox`), served by every runtime through the same handlers.
 * Its errors use the API's Error body too; it never reads files.
 */
export async function handleControlRequest(
  sandbox: Sandbox,
  { request, url, rest, body, session, findRequest, carrying, reserve }: ControlRequest,
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
  const outcome = await answerRoute(
    found,
    { method, path: url.pathname, rest },
    {
      what: 'control endpoint',
      has: () => `The control API has ${listEndpoints(CONTROL_ROUTES, CONTROL_PATH)}`,
      hasPath: (path) => routeControl('GET', path).kind !== 'not-found',
    },
    (route, params) =>
      route.resolve({
        sandbox,
        carrying,
        session,
        findRequest,
        request,
        url,
        params,
        body: async () => bytes,
        ...(reserve ? { reserve } : {}),
      }),
  )
  if (outcome instanceof Failure) return errorReply(outcome)
  if (outcome.status === 204)
    return { status: 204, headers: { ...outcome.headers }, text: '' }
  return jsonReply(outcome.status, outcome.body, outcome.headers ?? {})
}
