import type { IncomingMessage } from 'node:http'
import type {
  NextFunction,
  Request as ExpressRequest,
  RequestHandler,
  Response as ExpressResponse,
} from 'express'
import {
  getResponse,
  type HttpHandler,
  type RequestHandler as MswRequestHandler,
} from 'msw'
import type { Failure } from '../core/http/api-errors.js'
import { bodyLimitOf, bodyTooLarge } from '../core/control/carry-operations.js'
import { createSandboxHandler, type SandboxResolver } from '../core/pipeline/handlers.js'
import { checkHost, checkTarget, targetPath } from '../core/http/request-target.js'
import { forbiddenSessionOrigin } from '../core/http/request-trust.js'
import { CONTROL_PATH } from '../core/control/control-call.js'
import type { Sandbox } from '../core/sandbox.js'
import type { HandleInit } from '../core/pipeline/pipeline.js'
import { toResponse, type Reply } from '../core/http/reply.js'
import type { Scope } from '../core/pipeline/pipeline.js'
import { portOf, type Port } from '../core/pipeline/sandbox-port.js'
import type { NodeSandboxOptions } from '../node/files.js'
import {
  checkBodyLimit,
  resolveSandbox,
  type ExpressAdapterOptions,
} from './adapter-options.js'
import { discardBody, drainLimitOf, hasBody, parsedBody, readBody } from './read-body.js'
import { TransferBudget } from './transfer-budget.js'
import { sendFetchResponse, sendReply } from './send-fetch-response.js'
import { originForm, requestUrl, toFetchRequest } from './to-fetch-request.js'

/** What the adapter keeps beside a request: what the sandbox reads, then its reply. */
interface AdapterInit extends HandleInit {
  reply?: Reply
  /** The sandbox's handler took the request (no user's handler answered or threw first). */
  reached?: true
  /** The bytes of the transfer budget taken for its answer before it was built. */
  reserved?: number
}

/**
 * One of the user's handlers (option `handlers`, `--handlers`) threw: the 500 says so,
 * where the sandbox's own "internal error" would send its user looking for a bug of the
 * sandbox. `cause` is what the handler threw; the standalone app hands it to `onError`.
 */
export class HandlerThrewError extends Error {
  /** How the error path answers it (api-errors.ts `failureOf`). */
  readonly apiCode = 'internal_error'
  constructor(cause: unknown, method: string, path: string) {
    super(
      `One of your own msw handlers (the handlers option, --handlers) threw on ${method} ${path.slice(0, 200)}, so it has no answer: fix that handler, or have it return nothing to let the sandbox answer. Its error is the server's to report: the CLI prints it, createSandboxApp hands it to its onError, createSandboxMiddleware to next(error).`,
      { cause },
    )
    this.name = 'HandlerThrewError'
  }
}

/**
 * What the sandbox's handler hands msw when it answered a request of this adapter (the
 * reply itself is in the request's init): one Response each, never read or consumed.
 */
const ANSWERED = new Response(null)
const DROPPED = Response.error()

/**
 * A faster way through msw for a copy of msw whose version is pinned (the CLI bundle's,
 * src/cli/fast-path.ts): how to build the sandbox's handler and what to do to a request
 * before msw sees it. Not for the msw a user installs, which the adapter uses through
 * its public API only; no entry exports it, and no public option takes it.
 */
export interface MswFastPath {
  /** `urlOf`: the URL the adapter parsed for a request it handed msw, if any. */
  define(
    pattern: RegExp,
    resolve: SandboxResolver,
    urlOf?: (request: Request) => URL | undefined,
  ): HttpHandler
  prepare(request: Request): void
}

/**
 * What the standalone app (createSandboxApp, the CLI) adds to the middleware: the third
 * parameter of `buildSandboxMiddleware`, which no public function or type has.
 */
export interface MiddlewareInternals {
  /** The CLI's pinned-msw fast path; see {@link MswFastPath}. */
  fastPath?: MswFastPath
  /**
   * Let the user's handlers (option `handlers`) answer any path, not only the
   * sandbox's: the standalone app, where nothing else reads request bodies.
   */
  overridesEverywhere?: boolean
  /**
   * The standalone app's origin rule: the request's `Origin` when the app does not
   * trust it, so that such a page cannot make sessions (docs/security.md).
   */
  untrustedOrigin?: (req: IncomingMessage) => string | undefined
  /** The budget of large transfers (tests give a small one); default, one of its own. */
  transferBudget?: TransferBudget
  /**
   * The standalone app refused every Host and target that is not one before any of its
   * pages (create-sandbox-app.ts `checkRequest`): neither is checked again here, nor by
   * the pipeline (Pipeline `scope`).
   */
  requestChecked?: boolean
}

/** Sandbox options (paths allowed, as in `petstore-sandbox/node`) plus the adapter's. */
export type SandboxMiddlewareOptions = NodeSandboxOptions & ExpressAdapterOptions

/** An Express middleware over a sandbox; `sandbox` is the one it serves. */
export type SandboxMiddleware = RequestHandler & { readonly sandbox: Sandbox }

/**
 * Creates an Express 5 middleware that answers `/v1` and `/__sandbox` with the sandbox's
 * msw handlers (through msw's `getResponse`) and passes every other request on.
 *
 * @example
 * import express from 'express'
 * import { createSandboxMiddleware } from 'petstore-sandbox/express'
 * const app = express()
 * app.use(createSandboxMiddleware({ seed: 42 }))
 * app.listen(4010)
 * @see docs/server.md#in-your-own-express-app-petstore-sandboxexpress
 */
export function createSandboxMiddleware(
  sandboxOrOptions: Sandbox | SandboxMiddlewareOptions = {},
  adapterOptions: ExpressAdapterOptions = {},
): SandboxMiddleware {
  const { sandbox, adapter } = resolveSandbox(sandboxOrOptions, adapterOptions)
  return buildSandboxMiddleware(sandbox, adapter)
}

/**
 * `createSandboxMiddleware` with what the standalone app adds (`internals`): for
 * createSandboxApp and the CLI only, never exported by an entry.
 */
export function buildSandboxMiddleware(
  sandbox: Sandbox,
  adapter: ExpressAdapterOptions,
  internals: MiddlewareInternals = {},
): SandboxMiddleware {
  const inits = new WeakMap<Request, AdapterInit>()
  const own = sandboxHandler(sandbox, inits, internals.fastPath)
  const state: Adapter = {
    sandbox,
    port: portOf(sandbox),
    limit: checkBodyLimit(adapter.bodyLimit),
    budget: internals.transferBudget ?? new TransferBudget(),
    internals,
    inits,
    own,
    ownOnly: [own],
  }
  const { port } = state
  const { overridesEverywhere, requestChecked } = internals

  const middleware = (req: ExpressRequest, res: ExpressResponse, next: NextFunction) => {
    const host = req.headers.host
    const target = originForm(req.url, host)
    // A Host that is not one must not take part in the URL: it could move the path.
    const badHost = host === undefined || requestChecked ? undefined : checkHost(host)
    // A target that is not a path (`*`, another host's URL) is refused by the core when
    // its path is the sandbox's: the URL, which msw matches on, gets only that path.
    const path = target.charCodeAt(0) === 47 ? target : targetPath(target)
    const url = requestUrl(
      req,
      host === undefined || badHost ? 'localhost' : host,
      path.charCodeAt(0) === 47 ? path : '/',
    )
    // The same decision the handlers make, on the same URL, before any body is read.
    const scope = port.scope(url, target, requestChecked ? null : checkTarget)
    if (!scope && !(overridesEverywhere && sandbox.overrides.length > 0)) {
      return next()
    }
    void answer(state, req, res, next, url, target, badHost, scope)
  }

  Object.defineProperty(middleware, 'sandbox', { value: sandbox, enumerable: true })
  return middleware as SandboxMiddleware
}

/** What one middleware holds: its sandbox, body limit, transfer budget and handler. */
interface Adapter {
  readonly sandbox: Sandbox
  readonly port: Port
  /** The largest request body, in bytes. */
  readonly limit: number
  readonly budget: TransferBudget
  readonly internals: MiddlewareInternals
  /** What the adapter keeps beside each request it handed msw, by its Fetch Request. */
  readonly inits: WeakMap<Request, AdapterInit>
  /** The sandbox's own msw handler; `ownOnly`, it alone (no user's handlers). */
  readonly own: HttpHandler
  readonly ownOnly: HttpHandler[]
}

/**
 * The sandbox's handler as this adapter uses it. What the adapter knows of its requests
 * besides the Fetch Request (the body it read, the path as sent) is in `inits`, and so
 * is the sandbox's reply once the sandbox answered one. The reply is written as it is
 * (sendReply): the Response msw hands back is only a marker that the sandbox answered,
 * with no headers or body to build and read again, because Node 20's undici builds a
 * body stream and a header list for every Response (npm run bench). Only the sandbox's
 * handler sees these inits, and only this adapter reads the marker.
 */
function sandboxHandler(
  sandbox: Sandbox,
  inits: WeakMap<Request, AdapterInit>,
  fastPath: MswFastPath | undefined,
): HttpHandler {
  return createSandboxHandler(sandbox, {
    init(request) {
      const init = inits.get(request)
      if (init !== undefined) init.reached = true
      return init
    },
    respond(reply, request) {
      const init = inits.get(request)
      if (init === undefined) return toResponse(reply, request)
      init.reply = reply
      return reply.dropped ? DROPPED : ANSWERED
    },
    ...(fastPath
      ? {
          define: (pattern: RegExp, resolve: SandboxResolver) =>
            fastPath.define(pattern, resolve, (request) => inits.get(request)?.url),
        }
      : {}),
  })
}

/** Answers a request the middleware took: its body read, then msw and the sandbox. */
async function answer(
  adapter: Adapter,
  req: ExpressRequest,
  res: ExpressResponse,
  next: NextFunction,
  url: URL,
  target: string,
  badHost: Failure | undefined,
  scope: Scope | undefined,
) {
  const { sandbox, port, budget } = adapter
  let held: AdapterInit | undefined
  try {
    if (badHost) {
      return sendReply(port.refuse(toFetchRequest(req, url), badHost, target), res)
    }
    let body: Buffer | undefined
    if (req.readableEnded || (req as { _body?: boolean })._body) {
      // A body parser mounted before us consumed the stream: use what it kept.
      body = parsedBody(req.body)
    } else if (hasBody(req)) {
      body = await readRequestBody(adapter, req, res, url, target)
      if (body === undefined) return
    }
    // The user's handlers come first and may read the body: then it is in the request.
    const overrides = sandbox.overrides
    const request = toFetchRequest(req, url, overrides.length > 0 ? body : undefined)
    const init = adapterInit(adapter, req, res, url, target, body, scope)
    held = init
    adapter.inits.set(request, init)
    adapter.internals.fastPath?.prepare(request)
    const handlers =
      overrides.length === 0
        ? adapter.ownOnly
        : scope
          ? [...overrides, adapter.own]
          : overrides
    let response: Response | undefined
    try {
      response = await getResponse(handlers as MswRequestHandler[], request)
    } catch (error) {
      // The sandbox answers its own failures with an Error body; what throws out of
      // msw before the sandbox's handler took the request is one of the user's.
      if (init.reached || overrides.length === 0) throw error
      port.recordOverride(request, 500)
      throw new HandlerThrewError(error, request.method, url.pathname)
    }
    const { reply } = init
    if (reply !== undefined) {
      // A dropped request (docs/faults.md): no answer at all, as a network that failed
      // gives none. Nothing was written yet (not even the CORS headers, which wait for
      // writeHead), and the connection goes, keep-alive or not: a client retries on a
      // new one.
      if (reply.dropped) return void res.destroy()
      const reserved = init.reserved
      init.reserved = undefined
      return sendReply(reply, res, budget, reserved)
    }
    if (!response) return next()
    port.recordOverride(request, response.status)
    // A user's handler's HttpResponse.error(): no answer, as for a dropped request.
    if (response.type === 'error') return void res.destroy()
    await sendFetchResponse(response, res)
  } catch (error) {
    next(error)
  } finally {
    // Room taken for an answer that was not sent (an error, a user's handler's answer).
    if (held?.reserved) budget.give(held.reserved)
  }
}

/**
 * Reads the request's body within the limit and the transfer budget; undefined when it
 * was refused (413, or 503 while the budget is taken), the refusal sent already.
 */
async function readRequestBody(
  adapter: Adapter,
  req: ExpressRequest,
  res: ExpressResponse,
  url: URL,
  target: string,
): Promise<Buffer | undefined> {
  const { port, budget, limit } = adapter
  const taken = bodyLimitOf(req.method, url.pathname, limit)
  // A large body (an import) holds its bytes while it comes: it waits for room.
  const declared = Number(req.headers['content-length'])
  const expected = declared >= 0 && declared <= taken ? declared : taken
  if (!budget.take(expected)) {
    // The body is discarded as it comes (nothing held), then the 503 goes out:
    // answered at once and closed, a client still uploading got EPIPE instead.
    if (!(await discardBody(req, drainLimitOf(taken))))
      res.setHeader('connection', 'close')
    const refused = port.refuse(toFetchRequest(req, url), budget.busy('body'), target)
    sendReply(refused, res)
    return undefined
  }
  const read = await readBody(req, taken).finally(() => budget.give(expected))
  if (Buffer.isBuffer(read)) return read
  const refused = port.refuse(
    toFetchRequest(req, url),
    bodyTooLarge(req.method, url.pathname, limit),
    target,
  )
  if (read.close) res.setHeader('connection', 'close')
  sendReply(refused, res)
  return undefined
}

/** What the sandbox's handler reads beside the Fetch Request: the body, the target, ... */
function adapterInit(
  adapter: Adapter,
  req: ExpressRequest,
  res: ExpressResponse,
  url: URL,
  target: string,
  body: Buffer | undefined,
  scope: Scope | undefined,
): AdapterInit {
  const { budget } = adapter
  const init: AdapterInit =
    body === undefined ? { target, url, client: res } : { body, target, url, client: res }
  if (scope) init.scope = scope
  if (req.baseUrl) init.mount = req.baseUrl
  // A large answer (an export, a HAR) takes its room before it is built; only the
  // control API has one (no closure per /v1 request).
  if (url.pathname.includes(CONTROL_PATH))
    init.reserve = (bytes) => {
      if (bytes < budget.large) return undefined
      if (!budget.take(bytes)) return budget.busy('answer')
      init.reserved = (init.reserved ?? 0) + bytes
      return undefined
    }
  const untrusted = adapter.internals.untrustedOrigin?.(req)
  if (untrusted !== undefined)
    init.refuseNewSession = (session) => forbiddenSessionOrigin(untrusted, session)
  return init
}
