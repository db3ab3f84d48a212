import { HttpHandler, matchRequestUrl, type HttpResponseResolver } from 'msw'
import { handleApiRequest, type ApiContext } from './api.js'
import { basePattern } from './base-url.js'
import { CONTROL_PATH, handleControlRequest } from './control.js'
import type { Sandbox } from './sandbox.js'

/**
 * The msw handlers of a sandbox: one for the whole v1 API and one for the control API.
 * Routing below `/v1` happens in the core so that unknown paths and wrong methods get
 * the API's Error body (never msw's "unhandled request" warning) in every runtime.
 */
export function createHandlers(sandbox: Sandbox, ctx: ApiContext): HttpHandler[] {
  // The API first: nearly every request is under /v1, so it is the one msw matches first.
  return [
    new CookielessHttpHandler(
      basePattern(sandbox.bases, (base) => base.path),
      ({ request }) => handleApiRequest(ctx, request),
    ),
    new CookielessHttpHandler(
      basePattern(sandbox.bases, () => CONTROL_PATH),
      ({ request }) => handleControlRequest(sandbox, request),
    ),
  ]
}

type ParseArgs = Parameters<HttpHandler['parse']>[0]

/**
 * `http.all(pattern, resolver)` without the cookies. The API authenticates with bearer
 * keys and reads no cookie, yet msw's `HttpHandler` looks every request's cookies up in
 * its tough-cookie store (public suffix list, loopback checks) before matching: about a
 * tenth of the standalone server's CPU per request (npm run bench). Matching stays
 * msw's own `matchRequestUrl`, and resolvers get `cookies: {}`.
 */
class CookielessHttpHandler extends HttpHandler {
  constructor(pattern: RegExp, resolver: HttpResponseResolver) {
    super(/.+/, pattern, resolver)
  }

  override async parse({ request, resolutionContext }: ParseArgs) {
    // No CONNECT branch as in msw 3's parse: a Fetch Request cannot have that method.
    const path = this.info.path as RegExp
    const match = matchRequestUrl(new URL(request.url), path, resolutionContext?.baseUrl)
    return { match, cookies: {} }
  }
}
