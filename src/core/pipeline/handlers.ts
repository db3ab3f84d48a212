import { http, HttpHandler, type RequestHandler } from 'msw'
import { toResponse, type Reply } from '../http/reply.js'
import { basePattern } from '../http/base-url.js'
import { CONTROL_PATH } from '../control/control-call.js'
import type { Sandbox } from '../world/sandbox-types.js'
import type { HandleInit } from './pipeline.js'
import { portOf } from './sandbox-port.js'

/** The resolver of a sandbox handler: a response, or undefined to let msw go on. */
export type SandboxResolver = (
  request: Request,
  /** msw's id of the request, where the handler was given one (see `answeredBySandbox`). */
  requestId?: string,
) => Promise<Response | undefined>

/**
 * How a runtime's transport meets the handlers. Every field is optional; without any the
 * handler is a plain `http.all` handler answering ordinary Fetch responses, which is
 * what tests and the browser get.
 */
export interface HandlerTransport {
  /** What the transport knows of a request besides the Fetch Request (its body bytes, the path as sent). */
  init?(request: Request): HandleInit | undefined
  /**
   * Turns the core's reply into the Response msw hands back. A transport that gives it
   * tells the sandbox's answers from its users' handlers' itself (the Express adapter),
   * so they are not noted for `answeredBySandbox`, which msw's lifecycle events read.
   */
  respond?(reply: Reply, request: Request): Response
  /** Builds the msw handler; `http.all(pattern, ...)` by default. */
  define?(pattern: RegExp, resolve: SandboxResolver): HttpHandler
}

/** Requests the sandbox's own handler answered: anything else a handler list answered is an override's. */
const answered = new WeakSet<Request>()

/**
 * The same by msw's request id: `setupWorker` hands its `response:mocked` listeners a
 * request rebuilt from the worker's message, not the one the handler saw, so only the
 * id ties the two (without it every answer of the sandbox in the browser was journalled
 * a second time, as an override's). An id is taken back when its event reads it; where
 * no event follows (`getResponse` in the Express adapter) the oldest go past this many.
 */
const answeredIds = new Set<string>()
const MAX_ANSWERED_IDS = 1024

/** Whether the sandbox itself (not a user's handler) answered this request. */
export function answeredBySandbox(request: Request, requestId?: string): boolean {
  const byId = requestId !== undefined && answeredIds.delete(requestId)
  return byId || answered.has(request)
}

function noteAnswered(request: Request, requestId: string | undefined) {
  answered.add(request)
  if (requestId === undefined) return
  answeredIds.add(requestId)
  if (answeredIds.size > MAX_ANSWERED_IDS) {
    answeredIds.delete(answeredIds.values().next().value as string)
  }
}

/** Clones of requests with a body, kept before a user's handler can read it (see BodyKeeper). */
const kept = new WeakMap<Request, Request>()

/**
 * The msw handler of a sandbox: one `http.all` over the API's base paths and the control
 * API's, a thin wrapper over the sandbox's port (`portOf(sandbox).handle`). Routing happens in the core, so unknown
 * paths and wrong methods get the API's Error body (never msw's "unhandled request"
 * warning) in every runtime.
 */
export function createSandboxHandler(
  sandbox: Sandbox,
  transport: HandlerTransport = {},
): HttpHandler {
  const pattern = basePattern(sandbox.bases, (base) => [base.path, CONTROL_PATH])
  const respond = transport.respond ?? toResponse
  const port = portOf(sandbox)
  const resolve: SandboxResolver = async (request, requestId) => {
    // A user's handler before this one may have read the body and fallen through.
    const readable = request.bodyUsed ? (kept.get(request) ?? request) : request
    const reply = await port.handle(readable, transport.init?.(request))
    if (!reply) return undefined
    if (!transport.respond) noteAnswered(request, requestId)
    return respond(reply, request)
  }
  return transport.define
    ? transport.define(pattern, resolve)
    : http.all(pattern, ({ request, requestId }) => resolve(request, requestId))
}

/**
 * The sandbox's handler list: the user's handlers (option `handlers`) first, so one
 * override file serves every runtime, then the sandbox's. A user's handler that returns
 * nothing falls through to the sandbox, as in msw.
 */
export function createSandboxHandlers(
  sandbox: Sandbox,
  transport: HandlerTransport = {},
): RequestHandler[] {
  const own = createSandboxHandler(sandbox, transport)
  const overrides = sandbox.overrides
  return overrides.length === 0 ? [own] : [new BodyKeeper(), ...overrides, own]
}

/**
 * Keeps a clone of a request that has a body before the user's handlers see it, and
 * never matches (msw's documented `predicate` of a custom handler): a user's handler
 * may read the body and still fall through, and the sandbox then reads the clone.
 */
class BodyKeeper extends HttpHandler {
  constructor() {
    super(/.+/, /.*/, () => undefined)
  }

  override async predicate(args: Parameters<HttpHandler['predicate']>[0]) {
    const { request } = args
    if (request.body !== null && !request.bodyUsed && !kept.has(request)) {
      kept.set(request, request.clone())
    }
    return false
  }
}
