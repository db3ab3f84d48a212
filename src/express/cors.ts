/**
 * Headers browser code may send: the bearer token, the per-request scenario and the
 * control API's token.
 */
export const CORS_ALLOWED_HEADERS = [
  'Authorization',
  'Content-Type',
  'X-Sandbox-Scenario',
  'X-Sandbox-Control-Token',
]

/** Headers browser code may read: the rate limits, the 429 wait, deprecation and 405's Allow. */
export const CORS_EXPOSED_HEADERS = [
  'X-RateLimit-Limit',
  'X-RateLimit-Remaining',
  'X-RateLimit-Reset',
  'Retry-After',
  'Deprecation',
  'Sunset',
  'Link',
  'Allow',
]
