import { HttpHandler, matchRequestUrl, RequestHandler } from 'msw'
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
    new SandboxHandler(
      basePattern(sandbox.bases, (base) => base.path),
      (request) => handleApiRequest(ctx, request),
    ),
    new SandboxHandler(
      basePattern(sandbox.bases, () => CONTROL_PATH),
      (request) => handleControlRequest(sandbox, request),
    ),
  ]
}

type ParseArgs = Parameters<HttpHandler['parse']>[0]
type RunArgs = Parameters<HttpHandler['run']>[0]
type RunResult = ReturnType<HttpHandler['run']>
type Answer = (request: Request) => Promise<Response>

/**
 * `http.all(pattern, resolver)` for a resolver that is a plain async function of the
 * request, minus two costs msw pays on every request for features these handlers never
 * use (together about 15% of the standalone server's CPU per request on Node 20, from
 * `node --cpu-prof` under the bench's load):
 * - cookies: the API authenticates with bearer keys and reads no cookie, yet msw's
 *   `HttpHandler.parse` looks every request's cookies up in its tough-cookie store
 *   (public suffix list, loopback checks). Matching stays msw's own `matchRequestUrl`,
 *   and resolvers get `cookies: {}`;
 * - `finalize`: msw's `RequestHandler.run` creates an AbortController for `finalize`
 *   listeners and aborts it once the resolver settles, even when none was added. On
 *   Node 20 that abort (an Event and a DOMException) costs about 10 µs.
 * The handlers are still msw handlers: msw's setupServer, setupWorker and getResponse
 * find, run and log them as any other, and `src/core/handlers.test.ts` holds them to
 * what `http.all` does.
 */
export class SandboxHandler extends HttpHandler {
  readonly #answer: Answer

  constructor(pattern: RegExp, answer: Answer) {
    super(/.+/, pattern, ({ request }) => answer(request))
    this.#answer = answer
  }

  override async parse({ request, resolutionContext }: ParseArgs) {
    // As msw 3's parse: a CONNECT names an authority, not a URL (msw 3's interceptors
    // hand such requests to the handlers), so it never matches.
    if (request.method === 'CONNECT')
      return { match: { matches: false, params: {} }, cookies: {} }
    const path = this.info.path as RegExp
    const match = matchRequestUrl(new URL(request.url), path, resolutionContext?.baseUrl)
    return { match, cookies: {} }
  }

  /**
   * msw's `run` for these handlers (no `once`, no generator, no `finalize`), in msw's
   * order: the request clone from msw's cache, `parse`, `predicate`, the resolver (a
   * thrown Response is the answer, as in msw), and msw's execution result. msw's run also
   * copies a response's Set-Cookie into `document.cookie`; the API never sets a cookie.
   */
  override async run({ request, requestId, resolutionContext }: RunArgs): RunResult {
    let clone = RequestHandler.cache.get(request)
    if (clone === undefined) {
      clone = request.clone()
      RequestHandler.cache.set(request, clone)
    }
    const parsedResult = await this.parse({ request, resolutionContext })
    if (!(await this.predicate({ request, parsedResult, resolutionContext }))) return null
    this.isUsed = true
    let response: Response
    try {
      response = await this.#answer(request)
    } catch (error) {
      if (!(error instanceof Response)) throw error
      response = error
    }
    return { handler: this, request: clone, requestId, response, parsedResult }
  }
}
