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

/**
 * The msw handler of a sandbox: one `http.all` over the API's base paths and the control
 * API's, a thin wrapper over the sandbox's port (`portOf(sandbox).handle`). Routing happens in the core, so unknown
 * paths and wrong methods get the API's Error body (never msw's "unhandled request"
 * warning) in every runtime.
 */
export function createSandboxHandler(
  sandbox: Sandbox,
  transport: HandlerTransport = {},
  /** The list's keeper of request bodies, where the user's handlers come first. */
  keeper?: BodyKeeper,
): HttpHandler {
  const pattern = basePattern(sandbox.bases, (base) => [base.path, CONTROL_PATH])
  const respond = transport.respond ?? toResponse
  const port = portOf(sandbox)
  const answered = port.answered
  const resolve: SandboxResolver = async (request, requestId) => {
    // A user's handler before this one may have read the body and fallen through.
    const readable = request.bodyUsed ? (keeper?.kept(request) ?? request) : request
    const reply = await port.handle(readable, transport.init?.(request))
    if (!reply) return undefined
    if (!transport.respond) answered.note(request, requestId)
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
  const overrides = sandbox.overrides
  if (overrides.length === 0) return [createSandboxHandler(sandbox, transport)]
  const keeper = new BodyKeeper()
  return [keeper, ...overrides, createSandboxHandler(sandbox, transport, keeper)]
}

/**
 * Keeps a clone of a request that has a body before the user's handlers see it, and
 * never matches (msw's documented `predicate` of a custom handler): a user's handler
 * may read the body and still fall through, and the sandbox then reads the clone. One
 * per handler list: its clones are its sandbox's handler's alone.
 */
class BodyKeeper extends HttpHandler {
  readonly #kept = new WeakMap<Request, Request>()

  constructor() {
    super(/.+/, /.*/, () => undefined)
  }

  /** The clone kept of this request, if it had a body. */
  kept(request: Request): Request | undefined {
    return this.#kept.get(request)
  }

  override async predicate(args: Parameters<HttpHandler['predicate']>[0]) {
    const { request } = args
    const kept = this.#kept
    if (request.body !== null && !request.bodyUsed && !kept.has(request)) {
      kept.set(request, request.clone())
    }
    return false
  }
}
