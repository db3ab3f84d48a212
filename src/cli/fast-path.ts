import { HttpHandler, RequestHandler } from 'msw'
import type { SandboxResolver } from '../core/pipeline/handlers.js'
import type { MswFastPath } from '../express/create-sandbox-middleware.js'

type ParseArgs = Parameters<HttpHandler['parse']>[0]
type RunArgs = Parameters<HttpHandler['run']>[0]
type RunResult = ReturnType<HttpHandler['run']>

/**
 * The CLI's way through msw: only for the copy of msw bundled into the CLI, whose
 * version is pinned (package-lock.json on the Node 20 leg, an exact msw@3 in .ci/run on
 * the Node 22 leg). It relies on msw internals that a future msw may change, and
 * test/cli/fast-path.test.ts fails on that copy when they do. The library entries
 * (`petstore-sandbox`, `/node`, `/browser`, `/express`) never use it: they run on the
 * msw the user installed, through its public API.
 */
export const cliFastPath: MswFastPath = {
  define: (pattern, resolve, urlOf) => new FastSandboxHandler(pattern, resolve, urlOf),
  prepare: skipLoggingClone,
}

/**
 * `http.all(pattern, resolver)` for the sandbox's resolver (a plain async function of
 * the request), minus two costs msw pays on every request for features the sandbox
 * never uses (together about 15% of the standalone server's CPU per request on Node
 * 20, from `node --cpu-prof` under the bench's load):
 * - cookies: the API authenticates with bearer keys and reads no cookie, yet msw's
 *   `HttpHandler.parse` looks every request's cookies up in its tough-cookie store.
 *   Matching stays msw's own `matchRequestUrl`, and resolvers get `cookies: {}`;
 * - `finalize`: msw's `RequestHandler.run` creates an AbortController for `finalize`
 *   listeners and aborts it once the resolver settles, even when none was added. On
 *   Node 20 that abort (an Event and a DOMException) costs about 10 µs.
 * And it matches as msw's `matchRequestUrl` does for a pattern without groups (the
 * base pattern has none), on the URL the adapter parsed already: msw parses the
 * request's URL again and builds path-to-regexp's matcher anew on every request.
 * Upstream, msw could abort only when a listener was added; until then this stays here.
 */
export class FastSandboxHandler extends HttpHandler {
  readonly #resolve: SandboxResolver
  readonly #pattern: RegExp
  readonly #urlOf: (request: Request) => URL | undefined

  constructor(
    pattern: RegExp,
    resolve: SandboxResolver,
    /** The URL the transport parsed already for this request, if any. */
    urlOf: (request: Request) => URL | undefined = () => undefined,
  ) {
    super(/.+/, pattern, ({ request }) => resolve(request))
    this.#resolve = resolve
    this.#pattern = pattern
    this.#urlOf = urlOf
  }

  /**
   * msw's `matchRequestUrl` for a RegExp (its `baseUrl` applies to string paths only):
   * path-to-regexp's `exec` of the pattern on the URL's origin and path, whose params
   * are those of the pattern's groups, none here (an empty object without prototype).
   */
  override async parse({ request }: ParseArgs) {
    // As msw 3's parse: a CONNECT names an authority, not a URL (msw 3's interceptors
    // hand such requests to the handlers), so it never matches.
    if (request.method === 'CONNECT')
      return { match: { matches: false, params: {} }, cookies: {} }
    const url = this.#urlOf(request) ?? new URL(request.url)
    const matches = this.#pattern.test(`${url.origin}${url.pathname}`)
    const params: Record<string, string> = matches ? Object.create(null) : {}
    return { match: { matches, params }, cookies: {} }
  }

  /**
   * msw's `run` for this handler (no `once`, no generator, no `finalize`), in msw's
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
    let response: Response | undefined
    try {
      response = await this.#resolve(request)
    } catch (error) {
      if (!(error instanceof Response)) throw error
      response = error
    }
    return { handler: this, request: clone, requestId, response, parsedResult }
  }
}

/**
 * msw clones every request once, before any handler runs, so that its lifecycle events
 * can read the body again. `getResponse` emits no events and drops the clone unread, and
 * the clone is a second Request with its own AbortSignal. msw looks the clone up in
 * `RequestHandler.cache` first, so the request itself goes there: what the handlers see
 * is unchanged.
 */
function skipLoggingClone(request: Request) {
  RequestHandler.cache.set(request, request)
}
