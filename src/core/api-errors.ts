import type { ApiError } from './schemas.js'

export type HeaderMap = Record<string, string>

/**
 * Every error code the package sends, with its HTTP status: the one list the README's
 * error table, the OpenAPI document and the scenario checks are held to (tests compare
 * them). A scenario may force codes of its own; those are the user's, not in this list.
 * @see README.md#error-codes
 */
export const API_ERROR_STATUS = {
  missing_api_key: 401,
  malformed_authorization: 401,
  invalid_api_key: 401,
  expired_api_key: 401,
  control_token_required: 401,
  rate_limit_exceeded: 429,
  api_key_temporarily_banned: 429,
  validation_failed: 400,
  invalid_json: 400,
  unknown_scenario: 400,
  invalid_path: 400,
  invalid_host: 400,
  invalid_session: 400,
  session_conflict: 400,
  bad_request: 400,
  forbidden_origin: 403,
  forbidden_host: 403,
  invalid_control_token: 403,
  not_found: 404,
  method_not_allowed: 405,
  request_timeout: 408,
  session_exists: 409,
  endpoint_removed: 410,
  payload_too_large: 413,
  unsupported_media_type: 415,
  expectation_failed: 417,
  request_header_fields_too_large: 431,
  internal_error: 500,
  not_implemented: 501,
  storage_failed: 507,
  storage_full: 507,
} as const satisfies Record<string, number>

/** An error code of the package; see {@link API_ERROR_STATUS}. */
export type ApiErrorCode = keyof typeof API_ERROR_STATUS

/** The codes of {@link API_ERROR_STATUS}, in its order. */
export const API_ERROR_CODES = Object.keys(API_ERROR_STATUS) as ApiErrorCode[]

/**
 * The one error type of the request path: what went wrong, as the Error body will say
 * it. Resolvers and checks return it (a simulated failure is an answer, not an
 * exception); `errorReply` is the one function that turns it into a reply, adding the
 * headers of the place it is answered from (the rate-limit headers under `/v1`).
 */
export class Failure {
  readonly status: number

  constructor(
    readonly code: ApiErrorCode | (string & {}),
    readonly message: string,
    status: number,
    /** Headers the failure itself needs (`Allow` of a 405). */
    readonly headers: HeaderMap = {},
  ) {
    this.status = status
  }
}

/** A failure with one of the package's codes; its status comes from the list. */
export function fail(code: ApiErrorCode, message: string, headers?: HeaderMap): Failure {
  return new Failure(code, message, API_ERROR_STATUS[code], headers)
}

/** A failure a scenario file forces (its own status and code, checked when loaded). */
export function forcedFailure(status: number, code: string, message: string): Failure {
  return new Failure(code, message, status)
}

/**
 * What the core answers before a transport writes it: status, headers and the JSON
 * body as text.
 */
export interface Reply {
  status: number
  headers: HeaderMap
  /** The JSON body as text. */
  text: string
}

const JSON_HEADERS: HeaderMap = { 'content-type': 'application/json' }

/** A JSON reply with the given headers (rate-limit headers among them). */
export function jsonReply(status: number, body: unknown, headers: HeaderMap = {}): Reply {
  return { status, headers: { ...JSON_HEADERS, ...headers }, text: JSON.stringify(body) }
}

/**
 * The one way a failure becomes a reply: always `{code, message, status}` with `status`
 * equal to the HTTP status, the headers of the place it is answered from, and the
 * failure's own (`Allow`). Used by the core, the Express app and the socket-level
 * answers alike.
 */
export function errorReply(failure: Failure, headers: HeaderMap = {}): Reply {
  const body: ApiError = {
    code: failure.code,
    message: failure.message,
    status: failure.status,
  }
  return jsonReply(failure.status, body, { ...headers, ...failure.headers })
}

/**
 * A reply as a Fetch `Response`, for msw. The answer to a HEAD has the GET's status and
 * headers and no body (RFC 9110): msw hands a Response to the client as it is.
 */
export function toResponse(reply: Reply, request?: Request): Response {
  const body = reply.status === 204 || request?.method === 'HEAD' ? null : reply.text
  return new Response(body, { status: reply.status, headers: reply.headers })
}
