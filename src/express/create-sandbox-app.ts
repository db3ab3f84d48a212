import express, {
  type Express,
  type NextFunction,
  type Request,
  type Response,
} from 'express'
import { errorReply, failureOf } from '../core/http/api-errors.js'
import { apiHasPath } from '../core/api/api.js'
import { noRoute, type MeantPath } from '../core/http/route-outcome.js'
import { checkHost, checkTarget } from '../core/http/request-target.js'
import type { Sandbox } from '../core/sandbox.js'
import { portOf, type Port } from '../core/pipeline/sandbox-port.js'
import {
  checkAccessOptions,
  createAccessControl,
  tokenMatches,
  type AccessOptions,
} from './access-control.js'
import {
  checkBodyLimit,
  resolveSandbox,
  type ExpressAdapterOptions,
} from './adapter-options.js'
import {
  buildSandboxMiddleware,
  type MswFastPath,
  type SandboxMiddlewareOptions,
} from './create-sandbox-middleware.js'
import { writeOwedCorsHeaders } from './api-cors-headers.js'
import { FAVICON_PATHS, serveFavicon } from './pages/favicon.js'
import { renderLandingPage } from './pages/landing-page.js'
import { serveApiDocument, serveControlDocument } from './openapi-documents.js'
import { packageAssets } from './package-assets.js'
import { demoApiOrigin, pageHeaders, setPageHeaders } from './pages/page-headers.js'
import { inOrder } from './in-order.js'
import { refusePageMethods } from './pages/page-methods.js'
import { sendReply } from './send-fetch-response.js'
import { originForm, requestUrl, toFetchRequest } from './to-fetch-request.js'

/**
 * Options of the app on top of the middleware's; `allowedOrigins`, `allowedHosts` and
 * `controlToken` say who may use it (docs/security.md).
 */
export interface SandboxAppAdapterOptions extends ExpressAdapterOptions, AccessOptions {
  /** Called with every error the app answered with a 500 (for a log); clients never see it. */
  onError?: (error: unknown) => void
}

/** Sandbox options (paths allowed) plus the app's own. */
export type SandboxAppOptions = SandboxMiddlewareOptions & SandboxAppAdapterOptions

/**
 * An Express app serving a sandbox; `sandbox` is the one it serves, `controlToken` the
 * token its control API requires when locked (undefined with `controlToken: 'off'`).
 */
export type SandboxApp = Express & {
  readonly sandbox: Sandbox
  readonly controlToken: string | undefined
}

const ROUTES =
  'the API under /v1, the control API under /__sandbox, this overview at /, its icon at /favicon.svg, the OpenAPI documents at /openapi.json (the API) and /__sandbox/openapi.json (the control API), the API reference at /docs/, the request inspector at /inspector/ and the browser demo at /demo/'

/** `/v1/pets` for `/pets`: an API path sent without the API's base. */
function apiPathMeant(sandbox: Sandbox, path: string): MeantPath | undefined {
  const rest = path.replace(/\/+$/, '')
  const base = sandbox.bases.find((candidate) => candidate.origin === undefined)
  if (!base || rest === '' || !apiHasPath(rest)) return undefined
  return { path: `${base.path}${rest}`, why: `the API is under ${base.path}` }
}

/**
 * Creates the standalone sandbox as an Express app: the API and control endpoints, CORS
 * for browser clients, a 64 KiB body limit (413), a landing page at `/`, the OpenAPI
 * documents at `/openapi.json` (the API) and `/__sandbox/openapi.json` (the control
 * API), the browser demo at `/demo/`, and JSON errors only.
 *
 * @example
 * import { createSandboxApp } from 'petstore-sandbox/express'
 * const app = createSandboxApp({ seed: 42, scenario: 'rate-limited' })
 * app.listen(4010, '127.0.0.1')
 * @see docs/server.md#in-your-own-express-app-petstore-sandboxexpress
 */
export function createSandboxApp(
  sandboxOrOptions: Sandbox | SandboxAppOptions = {},
  adapterOptions: SandboxAppAdapterOptions = {},
): SandboxApp {
  const { sandbox, adapter } = resolveSandbox(
    sandboxOrOptions,
    adapterOptions,
    ['bodyLimit', 'onError', 'allowedOrigins', 'allowedHosts', 'controlToken'],
    (adapter) => {
      checkBodyLimit(adapter.bodyLimit)
      checkAccessOptions(adapter)
    },
  )
  return buildSandboxApp(sandbox, adapter)
}

/**
 * `createSandboxApp` over a ready sandbox, with the CLI's pinned-msw fast path when it
 * gives one (src/cli/fast-path.ts): for the CLI only, never exported by an entry.
 */
export function buildSandboxApp(
  sandbox: Sandbox,
  adapter: SandboxAppAdapterOptions,
  fastPath?: MswFastPath,
): SandboxApp {
  const port = portOf(sandbox)
  const assets = packageAssets()
  const app = express()
  app.disable('x-powered-by')
  app.disable('etag')
  // The API's CORS headers go out with each answer's head (access-control.ts).
  writeOwedCorsHeaders(app.response)

  // Who may use the server (docs/security.md).
  const access = createAccessControl(adapter, (req, res, failure) => {
    const target = originForm(req.url, req.headers.host)
    const url = requestUrl(req, 'localhost', '/')
    sendReply(port.refuse(toFetchRequest(req, url), failure, target), res)
  })
  const sandboxMiddleware = buildSandboxMiddleware(
    sandbox,
    adapter.bodyLimit ? { bodyLimit: adapter.bodyLimit } : {},
    {
      ...(fastPath ? { fastPath } : {}),
      overridesEverywhere: true,
      requestChecked: true,
      untrustedOrigin: access.untrustedOrigin,
    },
  )
  // Who may use the server (docs/security.md): CORS headers first, so refusals carry
  // them too; the Host, origin and token checks once the target is known to be sound;
  // the control API's document before the sandbox's middleware, which answers
  // everything else under /__sandbox.
  app.use(
    inOrder(
      access.headers,
      checkRequest(port),
      access.guard,
      access.preflight,
      serveControlDocument,
      sandboxMiddleware,
    ),
  )
  app.use(refusePageMethods(assets))
  app.get('/', landingPage(sandbox, access.controlToken, assets))
  app.get('/openapi.json', serveApiDocument)
  app.get([...FAVICON_PATHS], serveFavicon)
  servePages(app, assets)
  answerTheRest(app, adapter, sandbox)

  Object.defineProperty(app, 'sandbox', { value: sandbox, enumerable: true })
  Object.defineProperty(app, 'controlToken', {
    value: access.controlToken,
    enumerable: true,
  })
  return app as SandboxApp
}

/** Before any routing, for every page of the server: a target or Host that is not one. */
function checkRequest(port: Port) {
  return (req: Request, res: Response, next: NextFunction) => {
    const host = req.headers.host
    const target = originForm(req.url, host)
    const refused =
      (host === undefined ? undefined : checkHost(host)) ?? checkTarget(target)
    if (!refused) return next()
    const url = requestUrl(
      req,
      refused.code === 'invalid_host' ? 'localhost' : (host ?? 'localhost'),
      '/',
    )
    sendReply(port.refuse(toFetchRequest(req, url), refused, target), res)
  }
}

/** The overview at `/`, rendered from the sandbox's state at every request. */
function landingPage(
  sandbox: Sandbox,
  controlToken: string | undefined,
  assets: ReturnType<typeof packageAssets>,
) {
  return (req: Request, res: Response) => {
    // A link with the control token (the banner's) passes it on to the page's own links.
    const sent = typeof req.query.token === 'string' ? req.query.token : undefined
    const token =
      sent !== undefined && tokenMatches(sent, controlToken) ? sent : undefined
    const html = renderLandingPage(sandbox.state(), {
      origin: `${req.protocol}://${req.get('host') ?? 'localhost'}`,
      ...(token === undefined ? {} : { controlToken: token }),
      version: assets.version,
      openApi: assets.openApiFile !== undefined,
      demo: assets.demoDir !== undefined,
      docs: assets.docsDir !== undefined,
      inspector: assets.inspectorDir !== undefined,
    })
    res.writeHead(200, {
      'content-type': 'text/html; charset=utf-8',
      // Rendered from the sandbox's state: never an old copy.
      ...pageHeaders({ cache: 'no-store' }),
    })
    res.end(html)
  }
}

/**
 * The pages, built into dist at build time (nothing comes from another host): the
 * browser demo, the API reference (Swagger UI over /openapi.json) and the request
 * inspector. The demo may call the API of another sandbox (`?api=`), so its policy
 * lets it connect to that origin: the server reads the same query the page will.
 */
function servePages(app: Express, assets: ReturnType<typeof packageAssets>): void {
  for (const [path, dir] of [
    ['/demo', assets.demoDir],
    ['/docs', assets.docsDir],
    ['/inspector', assets.inspectorDir],
  ] as const) {
    if (!dir) continue
    // Our own redirect: serve-static's answers with an HTML page.
    app.get(path, (req, res, next) => {
      // Non-strict routing matches the path with its final slash here too.
      if (req.path !== path) return next()
      // Keep the query: the banner's link carries the control token in it, the demo's
      // its mode and API. The location is always this server's path.
      const query = originForm(req.url, req.headers.host).split('?')[1]
      res.writeHead(301, {
        ...pageHeaders(),
        location: `${path}/${query === undefined ? '' : `?${query}`}`,
      })
      res.end()
    })
    app.use(
      path,
      express.static(dir, {
        redirect: false,
        fallthrough: true,
        setHeaders: (res) => {
          const query = originForm(res.req.url, res.req.headers.host).split('?')[1] ?? ''
          setPageHeaders(
            res,
            path === '/demo' ? { connectTo: demoApiOrigin(query) } : undefined,
          )
        },
      }),
    )
  }
}

/** What no route answered: a 404 naming what the server has; an error: JSON, never HTML. */
function answerTheRest(
  app: Express,
  adapter: SandboxAppAdapterOptions,
  sandbox: Sandbox,
): void {
  app.use((req, res) => {
    sendReply(
      errorReply(
        noRoute(
          'page or endpoint',
          req.method,
          req.path,
          `This server has ${ROUTES}`,
          apiPathMeant(sandbox, req.path),
        ),
      ),
      res,
    )
  })

  app.use((error: unknown, req: Request, res: Response, _next: NextFunction) => {
    // A client that hung up before its request was complete (an aborted upload, a 408)
    // has nobody left to answer, and nothing went wrong in the sandbox: not an onError.
    if (res.headersSent || (!req.complete && req.socket.destroyed)) {
      res.destroy()
      return
    }
    const failure = failureOf(error)
    if (failure.code === 'internal_error') adapter.onError?.(error)
    sendReply(errorReply(failure), res)
  })
}
