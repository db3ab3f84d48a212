import { createServer, STATUS_CODES, type Server, type ServerResponse } from 'node:http'
import type { Duplex } from 'node:stream'
import type { Express } from 'express'
import { errorReply, fail, type ApiErrorCode } from '../core/api-errors.js'
import { sendReply } from './send-fetch-response.js'

/** Where and how the standalone server listens. */
export interface ListenOptions {
  /** Default 4010; 0 picks a free port (read it from `server.address()`). */
  port?: number
  /** Default `127.0.0.1`, so the sandbox is not reachable from the network unless asked. */
  host?: string
}

/** Transport limits of the standalone server; see README.md#transport-limits. */
export const TRANSPORT_LIMITS = {
  /** Request line and headers, in bytes (Node's default); larger is 431. */
  maxHeaderSize: 16 * 1024,
  /** A client must send all its headers within this time; else 408. */
  headersTimeoutMs: 10_000,
  /** ... and the whole request within this time; else 408. */
  requestTimeoutMs: 30_000,
}

/**
 * Starts an HTTP server for an Express app with the sandbox's transport behaviour:
 * headers too large (431), slow clients (408) and unparsable requests (400) get the
 * Error body too, never Node's bare status line. Rejects with Node's error (code
 * `EADDRINUSE`, ...) when it cannot listen.
 *
 * @example
 * const app = createSandboxApp({ seed: 42 })
 * const server = await listenSandboxApp(app, { port: 4010 })
 * @see README.md#in-an-express-app-petstore-sandboxexpress
 */
export function listenSandboxApp(
  app: Express,
  options: ListenOptions = {},
): Promise<Server> {
  const server = createServer(
    {
      maxHeaderSize: TRANSPORT_LIMITS.maxHeaderSize,
      headersTimeout: TRANSPORT_LIMITS.headersTimeoutMs,
      requestTimeout: TRANSPORT_LIMITS.requestTimeoutMs,
      // Node checks both timeouts only this often (30 s by default, which turned the
      // 10 s header limit into 30 s): check every second, or sooner for shorter limits.
      connectionsCheckingInterval: Math.min(1000, TRANSPORT_LIMITS.headersTimeoutMs / 2),
      // Node's own answer to a missing Host is a bare 400; ours has the Error body.
      requireHostHeader: false,
    },
    (req, res) => {
      if (req.headers.host === undefined && req.httpVersion === '1.1') {
        answerWithoutHost(res)
        return
      }
      app(req, res)
    },
  )
  server.on('clientError', answerClientError)
  return new Promise((resolve, reject) => {
    const onError = (error: Error) => reject(error)
    server.once('error', onError)
    server.listen(options.port ?? 4010, options.host ?? '127.0.0.1', () => {
      server.off('error', onError)
      resolve(server)
    })
  })
}

/** Node's client errors the server answers with an Error body of its own. */
const CLIENT_ERRORS: Record<string, [ApiErrorCode, string]> = {
  HPE_HEADER_OVERFLOW: [
    'request_header_fields_too_large',
    `The request line and headers are larger than ${TRANSPORT_LIMITS.maxHeaderSize / 1024} KiB. Send fewer or shorter headers.`,
  ],
  ERR_HTTP_REQUEST_TIMEOUT: [
    'request_timeout',
    `The request was not received within ${TRANSPORT_LIMITS.requestTimeoutMs / 1000} s. Send the whole request at once.`,
  ],
}

/** Headers of an answer the server gives before (or instead of) the app: it then hangs up. */
const CLOSING = { 'access-control-allow-origin': '*', connection: 'close' }

function answerClientError(error: Error & { code?: string }, socket: Duplex) {
  // Nothing can be written once the socket is gone or a response is under way.
  const busy = (socket as { _httpMessage?: { headersSent?: boolean } })._httpMessage
    ?.headersSent
  if (error.code === 'ECONNRESET' || !socket.writable || busy) {
    socket.destroy()
    return
  }
  const [code, message] = CLIENT_ERRORS[error.code ?? ''] ?? [
    'bad_request',
    'The request is not valid HTTP/1.1. Check the request line and headers.',
  ]
  // No ServerResponse exists for a request Node could not parse: the reply goes on the
  // socket as HTTP/1.1 text.
  const reply = errorReply(fail(code, message), CLOSING)
  const head = [`HTTP/1.1 ${reply.status} ${STATUS_CODES[reply.status] ?? ''}`]
  for (const [name, value] of Object.entries(reply.headers))
    head.push(`${name}: ${value}`)
  head.push(`content-length: ${Buffer.byteLength(reply.text)}`)
  socket.end(`${head.join('\r\n')}\r\n\r\n${reply.text}`)
}

/** HTTP/1.1 requires a Host header (RFC 9112): 400, as Node would, with the Error body. */
function answerWithoutHost(res: ServerResponse) {
  const failure = fail(
    'bad_request',
    'An HTTP/1.1 request needs a Host header, e.g. "Host: 127.0.0.1:4010".',
  )
  sendReply(errorReply(failure, CLOSING), res)
}
