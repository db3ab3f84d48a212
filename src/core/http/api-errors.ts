import { SandboxError } from '../common/errors.js'
import { jsonReply, type HeaderMap, type Reply } from './reply.js'
import type { ApiError } from '../common/schemas.js'

/**
 * Every error code the package sends, with its HTTP status: the one list the error table
 * of docs/errors.md, the OpenAPI document and the scenario checks are held to (tests compare
 * them). A scenario may force codes of its own; those are the user's, not in this list.
 * @see docs/errors.md#error-codes
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
  service_unavailable: 503,
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
 * The one way a failure becomes a reply: always `{code, message, status}` with `status`
 * equal to the HTTP status, the headers of the place it is answered from, and the
 * failure's own (`Allow`). Used by the core, the Express app and the socket-level
 * answers alike.
 */
export function errorReply(failure: Failure, ...headers: HeaderMap[]): Reply {
  const body: ApiError = {
    code: failure.code,
    message: failure.message,
    status: failure.status,
  }
  return jsonReply(failure.status, body, ...headers, failure.headers ?? {})
}

/**
 * The one way an error thrown on the request path becomes a failure. Domain errors carry
 * their code (`apiCode`: a store that could not write, `storage_failed`; the pet quota,
 * `storage_full`); any other SandboxError is the sandbox refusing what a valid body asks
 * (a clock date out of its range): `validation_failed`. A transport's error with a 4xx
 * status (a body parser's 413) keeps its meaning; anything else is `internal_error`,
 * which callers log, since it is a bug of the sandbox.
 */
export function failureOf(error: unknown): Failure {
  if (error instanceof Failure) return error
  const apiCode = (error as { apiCode?: unknown } | null)?.apiCode
  if (typeof apiCode === 'string' && Object.hasOwn(API_ERROR_STATUS, apiCode)) {
    return fail(apiCode as ApiErrorCode, (error as Error).message)
  }
  if (error instanceof SandboxError) return fail('validation_failed', error.message)
  const status =
    (error as { status?: unknown } | null)?.status ??
    (error as { statusCode?: unknown } | null)?.statusCode
  if (typeof status === 'number' && status >= 400 && status < 500) {
    return fail(
      status === 413 ? 'payload_too_large' : 'bad_request',
      `The request could not be read (${status}). Check the URL encoding, headers and body.`,
    )
  }
  return fail(
    'internal_error',
    'The sandbox failed to answer this request (an internal error, logged by the server). Retry it; if it keeps failing, POST /__sandbox/reset.',
  )
}
