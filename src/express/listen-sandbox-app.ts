import { createServer, type Server, type ServerResponse } from 'node:http'
import type { Duplex } from 'node:stream'
import type { Express } from 'express'
import { errorReply, fail, type ApiErrorCode } from '../core/api-errors.js'

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

const CLIENT_ERRORS: Record<string, [number, string, ApiErrorCode, string]> = {
  HPE_HEADER_OVERFLOW: [
    431,
    'Request Header Fields Too Large',
    'request_header_fields_too_large',
    `The request line and headers are larger than ${TRANSPORT_LIMITS.maxHeaderSize / 1024} KiB. Send fewer or shorter headers.`,
  ],
  ERR_HTTP_REQUEST_TIMEOUT: [
    408,
    'Request Timeout',
    'request_timeout',
    `The request was not received within ${TRANSPORT_LIMITS.requestTimeoutMs / 1000} s. Send the whole request at once.`,
  ],
}

function answerClientError(error: Error & { code?: string }, socket: Duplex) {
  // Nothing can be written once the socket is gone or a response is under way.
  const busy = (socket as { _httpMessage?: { headersSent?: boolean } })._httpMessage
    ?.headersSent
  if (error.code === 'ECONNRESET' || !socket.writable || busy) {
    socket.destroy()
    return
  }
  const [status, reason, code, message] = CLIENT_ERRORS[error.code ?? ''] ?? [
    400,
    'Bad Request',
    'bad_request',
    'The request is not valid HTTP/1.1. Check the request line and headers.',
  ]
  const body = errorReply(fail(code, message)).text
  socket.end(
    `HTTP/1.1 ${status} ${reason}\r\ncontent-type: application/json\r\ncontent-length: ${Buffer.byteLength(body)}\r\naccess-control-allow-origin: *\r\nconnection: close\r\n\r\n${body}`,
  )
}

/** HTTP/1.1 requires a Host header (RFC 9112): 400, as Node would, with the Error body. */
function answerWithoutHost(res: ServerResponse) {
  const body = errorReply(
    fail(
      'bad_request',
      'An HTTP/1.1 request needs a Host header, e.g. "Host: 127.0.0.1:4010".',
    ),
  ).text
  res.writeHead(400, {
    'content-type': 'application/json',
    'content-length': Buffer.byteLength(body),
    'access-control-allow-origin': '*',
    connection: 'close',
  })
  res.end(body)
}
