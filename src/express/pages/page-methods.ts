import type { NextFunction, Request, Response } from 'express'
import { errorReply } from '../../core/http/api-errors.js'
import { methodNotAllowed } from '../../core/http/route-outcome.js'
import type { PackageAssets } from '../package-assets.js'
import { sendReply } from '../send-fetch-response.js'

/** What every page of the standalone server takes: it is read, never written. */
export const PAGE_ALLOW = 'GET, HEAD'

/**
 * Refuses a method other than GET and HEAD on a page of the standalone server (`/`,
 * `/openapi.json`, the icon at `/favicon.svg` and `/favicon.ico`, and the built folders
 * `/demo/`, `/docs/`, `/inspector/`) with 405 `method_not_allowed` and
 * `Allow: GET, HEAD`, as the API answers a method a path does not take (`POST /` was a
 * 404). Mounted after the sandbox's middleware, so `/v1` and
 * `/__sandbox` are answered by the core; CORS preflights are answered before it.
 * Express routes case-insensitively and without strict trailing slashes: so does this.
 */
export function refusePageMethods(assets: PackageAssets) {
  const folders = [
    assets.demoDir && 'demo',
    assets.docsDir && 'docs',
    assets.inspectorDir && 'inspector',
  ].filter(Boolean)
  const pages = new RegExp(
    `^/(?:openapi\\.json/?|favicon\\.(?:svg|ico)/?${folders.map((name) => `|${name}(?:/.*)?`).join('')})?$`,
    'i',
  )
  return (req: Request, res: Response, next: NextFunction) => {
    if (req.method === 'GET' || req.method === 'HEAD' || !pages.test(req.path)) {
      return next()
    }
    const failure = methodNotAllowed(
      req.method,
      req.path,
      PAGE_ALLOW,
      ', a page of the sandbox (the API is under /v1, e.g. POST /v1/pets; the control API under /__sandbox)',
    )
    sendReply(errorReply(failure), res)
  }
}
