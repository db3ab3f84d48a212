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

const JSON_HEADERS: HeaderMap = { 'content-type': 'application/json' }

/** Where a response the sandbox built keeps its body text (a WeakMap costs more). */
const TEXT = Symbol('petstore-sandbox.text')
type WithText = Response & { [TEXT]?: string }

/**
 * The body of a response the sandbox built, as the text it was made from, or undefined
 * for any other response. A server adapter writes it as is instead of reading the body
 * stream back (npm run bench); the stream stays unread, so the response is unchanged.
 */
export function responseText(response: Response): string | undefined {
  return (response as WithText)[TEXT]
}

/** A JSON response with the given headers (rate-limit headers among them). */
export function jsonResponse(
  status: number,
  body: unknown,
  headers: HeaderMap = {},
): Response {
  const text = JSON.stringify(body)
  const response = new Response(text, {
    status,
    headers: { ...JSON_HEADERS, ...headers },
  })
  const withText: WithText = response
  withText[TEXT] = text
  return withText
}

/**
 * The one way a simulated failure is built: always `{code, message, status}` with
 * `status` equal to the HTTP status, and always the headers the caller passes (the
 * rate-limit headers for `/v1`). Never thrown.
 */
export function errorResponse(
  status: number,
  code: ApiErrorCode | (string & {}),
  message: string,
  headers: HeaderMap,
): Response {
  const body: ApiError = { code, message, status }
  return jsonResponse(status, body, headers)
}
