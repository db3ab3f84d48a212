import type { NextFunction, Request, Response } from 'express'

/** Headers browser code may send: the bearer token and the per-request scenario. */
export const CORS_ALLOWED_HEADERS = [
  'Authorization',
  'Content-Type',
  'X-Sandbox-Scenario',
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

// Every method, so a browser sending PATCH gets the API's 405 and its Error body
// instead of an opaque CORS failure.
const ALLOWED_METHODS = 'GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS'
const EXPOSED = CORS_EXPOSED_HEADERS.join(', ')
const ALLOWED = CORS_ALLOWED_HEADERS.join(', ')

/**
 * CORS for the standalone server. `*` suffices: the API authenticates with a bearer
 * header, never with cookies. Preflights are answered here; other requests go on.
 */
export function cors(req: Request, res: Response, next: NextFunction) {
  res.setHeader('access-control-allow-origin', '*')
  if (
    req.method !== 'OPTIONS' ||
    req.headers['access-control-request-method'] === undefined
  ) {
    res.setHeader('access-control-expose-headers', EXPOSED)
    return next()
  }
  const requested = req.headers['access-control-request-headers']
  res.setHeader('access-control-allow-methods', ALLOWED_METHODS)
  // Headers a client adds of its own (a request id, tracing) are allowed too: a sandbox
  // that failed a preflight would hide the behaviour the developer came to see.
  res.setHeader(
    'access-control-allow-headers',
    requested ? `${ALLOWED}, ${requested}` : ALLOWED,
  )
  res.setHeader('access-control-max-age', '600')
  res.setHeader('vary', 'Access-Control-Request-Headers')
  // Chrome's Private Network Access: a page on a public site calling 127.0.0.1.
  if (req.headers['access-control-request-private-network'] === 'true') {
    res.setHeader('access-control-allow-private-network', 'true')
  }
  res.statusCode = 204
  res.end()
}
