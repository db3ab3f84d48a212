import type { ApiError } from './schemas.js'

export type HeaderMap = Record<string, string>

/** Every API error code the sandbox answers with; see README.md#error-codes. */
export type ApiErrorCode =
  | 'missing_api_key'
  | 'malformed_authorization'
  | 'invalid_api_key'
  | 'expired_api_key'
  | 'rate_limit_exceeded'
  | 'api_key_temporarily_banned'
  | 'validation_failed'
  | 'invalid_json'
  | 'not_found'
  | 'method_not_allowed'
  | 'unsupported_media_type'
  | 'payload_too_large'
  | 'request_header_fields_too_large'
  | 'request_timeout'
  | 'endpoint_removed'
  | 'not_implemented'
  | 'unknown_scenario'
  | 'storage_failed'

const JSON_HEADERS: HeaderMap = { 'content-type': 'application/json' }

/**
 * What the core answers before it becomes a Fetch `Response`: the handlers turn it into
 * one at the last step (`toResponse`), when they know who will write it.
 */
export interface Reply {
  status: number
  headers: HeaderMap
  /** The JSON body as text. */
  text: string
}

/** A JSON reply with the given headers (rate-limit headers among them). */
export function jsonReply(status: number, body: unknown, headers: HeaderMap = {}): Reply {
  return { status, headers: { ...JSON_HEADERS, ...headers }, text: JSON.stringify(body) }
}

/**
 * The one way a simulated failure is built: always `{code, message, status}` with
 * `status` equal to the HTTP status, and always the headers the caller passes (the
 * rate-limit headers for `/v1`). Never thrown.
 */
export function errorReply(
  status: number,
  code: ApiErrorCode | (string & {}),
  message: string,
  headers: HeaderMap,
): Reply {
  const body: ApiError = { code, message, status }
  return jsonReply(status, body, headers)
}

/** Where a response the sandbox built keeps its body text (a WeakMap costs more). */
const TEXT = Symbol('petstore-sandbox.text')
type WithText = Response & { [TEXT]?: string }

/** Requests whose server adapter writes the reply's text itself (`writesReplyText`). */
const TEXT_WRITERS = new WeakSet<Request>()

/**
 * Marks a request whose adapter writes a sandbox response from `responseText`, never
 * from its body stream: the response to it is built without a body. Node 20's undici
 * builds a ReadableStream for every body, eagerly, a few percent of a request's cost
 * (npm run bench). Only an adapter that sends what `getResponse` returns, and reads
 * nothing else of it, may mark a request.
 */
export function writesReplyText(request: Request): void {
  TEXT_WRITERS.add(request)
}

/**
 * The Fetch `Response` of a reply to `request`: with its body, unless the request's
 * adapter writes the text itself. Either way the text rides along for `responseText`.
 */
export function toResponse(reply: Reply, request?: Request): Response {
  const init = { status: reply.status, headers: reply.headers }
  const response: WithText =
    request !== undefined && TEXT_WRITERS.has(request)
      ? new Response(null, init)
      : new Response(reply.text, init)
  response[TEXT] = reply.text
  return response
}

/**
 * The body of a response the sandbox built, as the text it was made from, or undefined
 * for any other response. A server adapter writes it as is instead of reading the body
 * stream back (npm run bench); the stream stays unread, so the response is unchanged.
 */
export function responseText(response: Response): string | undefined {
  return (response as WithText)[TEXT]
}
