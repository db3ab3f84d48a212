import {
  createServer,
  METHODS,
  STATUS_CODES,
  type IncomingMessage,
  type Server,
  type ServerResponse,
} from 'node:http'
import type { Duplex } from 'node:stream'
import type { Express } from 'express'
import {
  errorReply,
  fail,
  type ApiErrorCode,
  type Failure,
} from '../core/http/api-errors.js'
import { type HeaderMap, type Reply } from '../core/http/reply.js'
import { allowedMethods } from '../core/http/router.js'
import { API_ROUTES } from '../core/api/routes.js'
import { CONTROL_ROUTES } from '../core/control/routes.js'
import { quoted } from '../core/common/describe-issues.js'
import { SandboxError } from '../core/common/errors.js'
import type { Sandbox } from '../core/sandbox.js'
import { portOf } from '../core/pipeline/sandbox-port.js'
import { createResponseLines } from './response-lines.js'
import { sendReply } from './send-fetch-response.js'

/** Where and how the standalone server listens. */
export interface ListenOptions {
  /**
   * Default 4010; 0 picks a free port (read it from `server.address()`). A string of
   * digits, such as `process.env.PORT`, is taken too.
   */
  port?: number | string
  /** Default `127.0.0.1`, so the sandbox is not reachable from the network unless asked. */
  host?: string
}

/**
 * Transport limits of the standalone server, read when a server starts listening; see
 * docs/server.md#limits-and-guarantees-of-the-server.
 */
export const TRANSPORT_LIMITS = {
  /** Request line and headers, in bytes (Node's default); larger is 431. */
  maxHeaderSize: 16 * 1024,
  /** A client must send all its headers within this time; else 408. */
  headersTimeoutMs: 10_000,
  /** ... and the whole request within this time; else 408. */
  requestTimeoutMs: 30_000,
  /**
   * A response the server has written must leave its buffers within this time (the
   * clock restarts whenever the client takes what was buffered; checked once a second,
   * or each half of this time if it is shorter); else the connection is closed. A
   * client that stops reading holds one response, then is disconnected.
   */
  sendTimeoutMs: 30_000,
  /** A connection idle between requests is closed after this time (Node's default). */
  keepAliveTimeoutMs: 5_000,
  /**
   * Requests a client may send ahead of its answers on one connection (HTTP
   * pipelining); they are answered one at a time, and one more closes the connection.
   */
  maxPipelinedRequests: 16,
}

type Limits = typeof TRANSPORT_LIMITS

/**
 * Starts an HTTP server for an Express app with the sandbox's transport behaviour:
 * headers too large (431), slow clients (408), unparsable requests (400), `CONNECT`
 * (405) and an `Expect` other than `100-continue` (417) get the Error body too, never
 * Node's bare status line or a closed socket; an app made by `createSandboxApp` adds
 * the anonymous rate-limit headers to them. Responses are written one at a time per
 * connection, and a client that stops reading is disconnected after the send timeout,
 * so memory stays bounded. Rejects with Node's error (code `EADDRINUSE`, ...) when it
 * cannot listen.
 *
 * @example
 * const app = createSandboxApp({ seed: 42 })
 * const server = await listenSandboxApp(app, { port: 4010 })
 * @see docs/server.md#in-your-own-express-app-petstore-sandboxexpress
 */
export function listenSandboxApp(
  app: Express,
  options: ListenOptions = {},
): Promise<Server> {
  let port: number
  try {
    port = checkListenArguments(app, options)
  } catch (error) {
    return Promise.reject(error)
  }
  const limits: Limits = { ...TRANSPORT_LIMITS }
  const sandbox = (app as Express & { sandbox?: Sandbox }).sandbox
  // The headers of every answer given before the app sees a request.
  const closing = (): HeaderMap => ({
    ...(sandbox ? portOf(sandbox).rateLimitHeaders() : {}),
    ...CLOSING,
  })
  const answer = (req: IncomingMessage, res: ServerResponse) => {
    if (req.headers.host === undefined && req.httpVersion === '1.1') {
      answerWithoutHost(res, closing())
      return
    }
    app(req, res)
  }
  const server = createServer(
    {
      maxHeaderSize: limits.maxHeaderSize,
      headersTimeout: limits.headersTimeoutMs,
      requestTimeout: limits.requestTimeoutMs,
      // Node checks both timeouts only this often (30 s by default, which turned the
      // 10 s header limit into 30 s): check every second, or sooner for shorter limits.
      connectionsCheckingInterval: Math.min(1000, limits.headersTimeoutMs / 2),
      // Node's own answer to a missing Host is a bare 400; ours has the Error body.
      requireHostHeader: false,
    },
    (req, res) => lines.admit(req, res, answer),
  )
  const lines = createResponseLines(server, limits)
  server.keepAliveTimeout = limits.keepAliveTimeoutMs
  server.on('clientError', (error: Error & { code?: string }, socket: Duplex) => {
    // The last request whose headers were read: a timeout while its body is still
    // coming is the whole-request limit, otherwise the header limit.
    const request = lines.reading(socket)
    const timeout =
      request !== undefined && !request.complete ? 'request' : ('headers' as const)
    answerClientError(error, socket, limits, timeout, closing)
  })
  // Without a listener Node closes the socket of a CONNECT without a word.
  server.on('connect', (_req: IncomingMessage, socket: Duplex) => {
    const failure = fail(
      'method_not_allowed',
      'CONNECT asks for a tunnel, and this server is not a proxy: send requests to it directly, e.g. GET /v1/pets.',
      { allow: SERVER_METHODS },
    )
    writeOnSocket(socket, errorReply(failure, closing()))
  })
  // Without a listener Node answers an Expect other than 100-continue with a bare 417.
  server.on('checkExpectation', (req: IncomingMessage, res: ServerResponse) => {
    lines.admit(req, res, (_req, res) => {
      const failure = fail(
        'expectation_failed',
        `The server meets only "Expect: 100-continue", got "Expect: ${String(req.headers.expect).slice(0, 60)}". Leave the header out, or send 100-continue.`,
      )
      sendReply(errorReply(failure, closing()), res)
    })
  })
  return new Promise((resolve, reject) => {
    const onError = (error: Error) => reject(error)
    server.once('error', onError)
    server.listen(port, options.host ?? '127.0.0.1', () => {
      server.off('error', onError)
      resolve(server)
    })
  })
}

/**
 * Refuses what would listen wrong or fail later: an app that is not one (the first
 * request would crash the process), a port Node would take as a pipe's name.
 */
/** Refuses arguments Node would misread; returns the port to listen on. */
function checkListenArguments(app: unknown, options: ListenOptions): number {
  const refuse = (reason: string, fix: string) =>
    SandboxError.for('INVALID_OPTION', 'listen', reason, fix)
  if (typeof app !== 'function') {
    throw refuse(
      `the app must be an Express app, got ${app === null ? 'null' : typeof app}`,
      'Pass what createSandboxApp() returned (or your express() app): listenSandboxApp(createSandboxApp(), { port: 4010 }).',
    )
  }
  if (typeof options !== 'object' || options === null) {
    throw refuse(
      `the options must be an object, got ${options === null ? 'null' : typeof options}`,
      'Pass { port, host }, or nothing for 127.0.0.1:4010.',
    )
  }
  const { host } = options
  // process.env.PORT is a string: digits are a port, as Node's listen() takes them.
  const port =
    typeof options.port === 'string' && /^\d{1,5}$/.test(options.port)
      ? Number(options.port)
      : (options.port ?? 4010)
  if (!(
    Number.isInteger(port) &&
    typeof port === 'number' &&
    port >= 0 &&
    port <= 65535
  )) {
    throw refuse(
      `port must be a number from 0 to 65535, got ${quoted(options.port)}`,
      'Pass a number such as 4010 (or a string of digits, such as process.env.PORT), or 0 for a free port.',
    )
  }
  if (host != null && (typeof host !== 'string' || host === '')) {
    throw refuse(
      `host must be a host name or address, got ${quoted(host)}`,
      'Pass "127.0.0.1" (the default), "localhost" or another address of this machine.',
    )
  }
  return port
}

/** The methods the server answers on some path, for the `Allow` of a CONNECT. */
const SERVER_METHODS = `${allowedMethods([...API_ROUTES, ...CONTROL_ROUTES])}, OPTIONS`

/** Node's client errors the server answers with an Error body of its own. */
function clientErrorFailure(
  code: string | undefined,
  limits: Limits,
  timeout: 'headers' | 'request',
): Failure {
  const errors: Record<string, [ApiErrorCode, string]> = {
    HPE_HEADER_OVERFLOW: [
      'request_header_fields_too_large',
      `The request line and headers are larger than ${limits.maxHeaderSize / 1024} KiB. Send fewer or shorter headers.`,
    ],
    ERR_HTTP_REQUEST_TIMEOUT:
      timeout === 'headers'
        ? [
            'request_timeout',
            `The request line and headers were not received within ${limits.headersTimeoutMs / 1000} s. Send the headers at once.`,
          ]
        : [
            'request_timeout',
            `The request body was not received within ${limits.requestTimeoutMs / 1000} s of the request's start. Send the whole request at once.`,
          ],
  }
  const [failureCode, message] = errors[code ?? ''] ?? [
    'bad_request',
    'The request is not valid HTTP/1.1. Check the request line and headers.',
  ]
  return fail(failureCode, message)
}

/** Headers of an answer the server gives before (or instead of) the app: it then hangs up. */
const CLOSING = { 'access-control-allow-origin': '*', connection: 'close' }

function answerClientError(
  error: Error & { code?: string },
  socket: Duplex,
  limits: Limits,
  timeout: 'headers' | 'request',
  closing: () => HeaderMap,
) {
  // Nothing can be written once the socket is gone or a response is under way.
  const busy = (socket as { _httpMessage?: { headersSent?: boolean } })._httpMessage
    ?.headersSent
  if (error.code === 'ECONNRESET' || !socket.writable || busy) {
    socket.destroy()
    return
  }
  const failure =
    (error.code === 'HPE_INVALID_METHOD' ? unknownMethod(error) : undefined) ??
    clientErrorFailure(error.code, limits, timeout)
  writeOnSocket(socket, errorReply(failure, closing()))
}

/** A request line: a method token (RFC 9110 tchar), a target and the HTTP version. */
const REQUEST_LINE = /^([!#$%&'*+\-.^_`|~0-9A-Za-z]+) [^ ]+ HTTP\/\d\.\d\r?$/

/**
 * A well-formed request line whose method Node's parser does not know (`FOO`, `TRACK`,
 * a lowercase `get`): a method no path of the server takes, so 405 with `Allow`, as
 * the app answers the methods Node knows (`TRACE`, `PROPFIND`). Anything else that
 * fails as a method is not HTTP: undefined, and the 400 of other client errors.
 */
function unknownMethod(
  error: Error & { rawPacket?: unknown; bytesParsed?: unknown },
): Failure | undefined {
  const raw = error.rawPacket
  if (!Buffer.isBuffer(raw)) return undefined
  // The packet may hold requests before the refused one (pipelining): its line is the
  // one the parser stopped in.
  const at = typeof error.bytesParsed === 'number' ? error.bytesParsed : 0
  const start = raw.lastIndexOf(10, Math.max(at - 1, 0)) + 1
  const end = raw.indexOf(10, start)
  const line = raw.subarray(start, end === -1 ? raw.length : end).toString('latin1')
  const method = REQUEST_LINE.exec(line)?.[1]
  if (method === undefined || METHODS.includes(method)) return undefined
  const known = SERVER_METHODS.split(', ').includes(method.toUpperCase())
  return fail(
    'method_not_allowed',
    `${JSON.stringify(method.slice(0, 20))} is not a method this server takes${known ? ` (methods are case-sensitive: send ${method.toUpperCase()})` : ''}; it answers ${SERVER_METHODS}, each on the paths that take it.`,
    { allow: SERVER_METHODS },
  )
}

/**
 * Writes a reply as HTTP/1.1 text on a socket no ServerResponse exists for (a request
 * Node could not parse, a CONNECT), and hangs up.
 */
function writeOnSocket(socket: Duplex, reply: Reply) {
  const head = [`HTTP/1.1 ${reply.status} ${STATUS_CODES[reply.status] ?? ''}`]
  for (const [name, value] of Object.entries(reply.headers))
    head.push(`${name}: ${value}`)
  head.push(`content-length: ${Buffer.byteLength(reply.text)}`)
  socket.end(`${head.join('\r\n')}\r\n\r\n${reply.text}`)
}

/** HTTP/1.1 requires a Host header (RFC 9112): 400, as Node would, with the Error body. */
function answerWithoutHost(res: ServerResponse, headers: HeaderMap) {
  const failure = fail(
    'bad_request',
    'An HTTP/1.1 request needs a Host header, e.g. "Host: 127.0.0.1:4010".',
  )
  sendReply(errorReply(failure, headers), res)
}
