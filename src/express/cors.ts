/**
 * Headers browser code may send: the bearer token, the per-request scenario, the
 * session and the control API's token.
 */
export const CORS_ALLOWED_HEADERS = [
  'Authorization',
  'Content-Type',
  'X-Sandbox-Scenario',
  'X-Sandbox-Session',
  'X-Sandbox-Control-Token',
]

/**
 * Headers browser code may read: the request id, the rate limits, the 429 wait,
 * deprecation, 405's Allow, and whether the request made its session.
 */
export const CORS_EXPOSED_HEADERS = [
  'X-Sandbox-Request-Id',
  'X-Sandbox-Session-Created',
  'X-RateLimit-Limit',
  'X-RateLimit-Remaining',
  'X-RateLimit-Reset',
  'Retry-After',
  'Deprecation',
  'Sunset',
  'Link',
  'Allow',
]
