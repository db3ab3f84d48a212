import type {
  NextFunction,
  Request as ExpressRequest,
  RequestHandler,
  Response as ExpressResponse,
} from 'express'
import { getResponse, RequestHandler as MswRequestHandler } from 'msw'
import { CONTROL_PATH } from '../core/control.js'
import { SandboxError } from '../core/errors.js'
import { attachRequestBody } from '../core/request-body.js'
import { writesReplyText } from '../core/responses.js'
import { createSandbox, type Sandbox } from '../core/sandbox.js'
import { resolveNodeOptions, type NodeSandboxOptions } from '../node/files.js'
import { readBody } from './read-body.js'
import { sendFetchResponse } from './send-fetch-response.js'
import { toFetchRequest } from './to-fetch-request.js'

/** The largest request body the adapter reads: 64 KiB, a NewPet is well under 1 KiB. */
export const DEFAULT_BODY_LIMIT = 64 * 1024

/** Options of the Express adapter itself. */
export interface ExpressAdapterOptions {
  /** The largest request body in bytes; a larger one gets 413 `payload_too_large`. Default 64 KiB. */
  bodyLimit?: number
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
 * @see README.md#in-an-express-app-petstore-sandboxexpress
 */
export function createSandboxMiddleware(
  sandboxOrOptions: Sandbox | SandboxMiddlewareOptions = {},
  adapterOptions: ExpressAdapterOptions = {},
): SandboxMiddleware {
  const { sandbox, adapter } = resolveSandbox(sandboxOrOptions, adapterOptions)
  const limit = checkBodyLimit(adapter.bodyLimit)
  const prefixes = [...new Set([CONTROL_PATH, ...sandbox.bases.map((base) => base.path)])]
  // A cheap prefix test first, so the landing page and static files never pay for a
  // Fetch Request and a pass through msw.
  const serves = (path: string) =>
    prefixes.some(
      (prefix) =>
        path.startsWith(prefix) &&
        (path.length === prefix.length || path.charCodeAt(prefix.length) === 47),
    )

  const middleware = (req: ExpressRequest, res: ExpressResponse, next: NextFunction) => {
    const url = originForm(req.url)
    const query = url.indexOf('?')
    if (!serves(query === -1 ? url : url.slice(0, query))) return next()
    void answer(req, res, next, url)
  }

  async function answer(
    req: ExpressRequest,
    res: ExpressResponse,
    next: NextFunction,
    url: string,
  ) {
    try {
      let body: Buffer | undefined
      if (req.readableEnded || (req as { _body?: boolean })._body) {
        // A body parser mounted before us consumed the stream: use what it kept.
        body = parsedBody(req.body)
      } else if (hasBody(req)) {
        const read = await readBody(req, limit)
        if (!Buffer.isBuffer(read)) {
          const refused = sandbox.refuse(
            toFetchRequest(req, url),
            413,
            'payload_too_large',
            `The request body is larger than the sandbox accepts (${limit.toLocaleString('en-US')} bytes). A NewPet such as {"name":"Rex","categoryId":1} is well under 1 KiB.`,
          )
          if (read.close) res.setHeader('connection', 'close')
          await sendFetchResponse(refused, res)
          return
        }
        body = read
      }
      // Only the sandbox's handlers read this request: its body goes beside it, not in
      // a stream, and sendFetchResponse writes the responses from their text.
      const request = toFetchRequest(req, url)
      if (body !== undefined) attachRequestBody(request, body)
      skipLoggingClone(request)
      writesReplyText(request)
      const response = await getResponse(sandbox.handlers, request)
      if (!response) return next()
      await sendFetchResponse(response, res)
    } catch (error) {
      next(error)
    }
  }

  Object.defineProperty(middleware, 'sandbox', { value: sandbox, enumerable: true })
  return middleware as SandboxMiddleware
}

/**
 * msw clones every request once, before any handler runs, so that its lifecycle events
 * can read the body again. `getResponse` emits no events and drops the clone unread, and
 * the clone is a second Request with its own AbortSignal.
 * msw looks the clone up in `RequestHandler.cache` (public in msw 2 and 3) first, so the
 * request itself goes there: what the handlers see is unchanged. Without that cache the
 * request is cloned as before.
 */
function skipLoggingClone(request: Request) {
  const cache = (MswRequestHandler as { cache?: unknown }).cache
  if (cache instanceof WeakMap) cache.set(request, request)
}

/**
 * The path and query of a request target. Proxies send the absolute form
 * (`GET http://host/v1/pets HTTP/1.1`), which HTTP/1.1 servers must accept too.
 */
function originForm(target: string): string {
  if (target.charCodeAt(0) === 47) return target
  try {
    const url = new URL(target)
    return `${url.pathname}${url.search}`
  } catch {
    return target
  }
}

/** Whether a request may carry a body the API reads (GET and HEAD bodies are ignored). */
function hasBody(req: ExpressRequest) {
  if (req.method === 'GET' || req.method === 'HEAD') return false
  const length = req.headers['content-length']
  return (
    req.headers['transfer-encoding'] !== undefined ||
    (length !== undefined && length !== '0')
  )
}

function parsedBody(value: unknown): Buffer | undefined {
  if (value === undefined || value === null) return undefined
  if (Buffer.isBuffer(value)) return value
  if (typeof value === 'string') return Buffer.from(value)
  return Buffer.from(JSON.stringify(value))
}

/** Tells a ready sandbox from options, so both entry points accept either. */
export function isSandbox(value: unknown): value is Sandbox {
  return (
    typeof value === 'object' &&
    value !== null &&
    Array.isArray((value as Sandbox).handlers) &&
    typeof (value as Sandbox).reset === 'function'
  )
}

/** Splits sandbox options from adapter options and creates the sandbox when needed. */
export function resolveSandbox<Adapter extends object>(
  sandboxOrOptions: Sandbox | (NodeSandboxOptions & Adapter),
  adapterOptions: Adapter,
  adapterKeys: readonly string[] = ['bodyLimit'],
): { sandbox: Sandbox; adapter: Adapter } {
  if (isSandbox(sandboxOrOptions))
    return { sandbox: sandboxOrOptions, adapter: adapterOptions }
  const sandboxOptions: Record<string, unknown> = {}
  const adapter: Record<string, unknown> = {
    ...(adapterOptions as Record<string, unknown>),
  }
  for (const [key, value] of Object.entries(sandboxOrOptions)) {
    if (adapterKeys.includes(key)) adapter[key] ??= value
    else sandboxOptions[key] = value
  }
  return {
    sandbox: createSandbox(resolveNodeOptions(sandboxOptions as NodeSandboxOptions)),
    adapter: adapter as Adapter,
  }
}

function checkBodyLimit(value: number | undefined) {
  if (value === undefined) return DEFAULT_BODY_LIMIT
  if (!Number.isInteger(value) || value < 1 || value > 100 * 1024 * 1024) {
    throw SandboxError.for(
      'INVALID_OPTION',
      'create the Express adapter',
      `bodyLimit ${JSON.stringify(value)} is not a number of bytes from 1 to 104857600`,
      `Leave it out for ${DEFAULT_BODY_LIMIT} bytes (64 KiB), or pass a positive integer.`,
    )
  }
  return value
}
