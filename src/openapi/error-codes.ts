/**
 * Every `code` the sandbox itself answers with, as in README.md#error-codes. It mirrors
 * the core's `ApiErrorCode` (src/core/responses.ts) plus the standalone server's own
 * (`request_timeout`, `request_header_fields_too_large`, `internal_error`); the document
 * lists these as the examples of `Error.code`, and a test holds them to the README.
 */
export const API_ERROR_CODES = [
  'validation_failed',
  'invalid_json',
  'unknown_scenario',
  'missing_api_key',
  'malformed_authorization',
  'invalid_api_key',
  'expired_api_key',
  'not_found',
  'method_not_allowed',
  'endpoint_removed',
  'payload_too_large',
  'unsupported_media_type',
  'rate_limit_exceeded',
  'api_key_temporarily_banned',
  'request_timeout',
  'request_header_fields_too_large',
  'internal_error',
  'not_implemented',
] as const
