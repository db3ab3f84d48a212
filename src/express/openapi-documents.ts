import { readFileSync } from 'node:fs'
import type { NextFunction, Request, Response } from 'express'
import { errorReply } from '../core/http/api-errors.js'
import { methodNotAllowed } from '../core/http/route-outcome.js'
import { apiServerUrl, controlServerUrl } from '../openapi/servers.js'
import { packageAssets } from './package-assets.js'
import { PAGE_ALLOW } from './pages/page-methods.js'
import { sendReply } from './send-fetch-response.js'
import { requestUrl } from './to-fetch-request.js'

/**
 * Where the standalone server serves the control API's OpenAPI document. Under
 * `/__sandbox` yet public, like `/openapi.json`: it is the same static description the
 * package ships (no state, no session, no token in it), and `/docs/` must read it on a
 * server whose control API is locked. So the access rules leave this one path (exactly
 * this, case included) out of the control API's origin and token checks.
 */
export const CONTROL_DOCUMENT_PATH = '/__sandbox/openapi.json'

/** `GET /openapi.json`: the API's document, naming the server it was fetched from. */
export function serveApiDocument(req: Request, res: Response, next: NextFunction) {
  sendDocument(req, res, next, 'api')
}

/**
 * `GET /__sandbox/openapi.json`: the control API's document, whose one server is the
 * origin and mount path it was fetched from. Mounted before the sandbox's middleware,
 * which would answer the path as an unknown control endpoint; other methods are 405
 * with `Allow: GET, HEAD`, as on every page of the server.
 */
export function serveControlDocument(req: Request, res: Response, next: NextFunction) {
  if (req.path !== CONTROL_DOCUMENT_PATH) return next()
  if (req.method !== 'GET' && req.method !== 'HEAD') {
    const failure = methodNotAllowed(
      req.method,
      req.path,
      PAGE_ALLOW,
      ", the control API's OpenAPI document (GET it)",
    )
    return sendReply(errorReply(failure), res)
  }
  sendDocument(req, res, next, 'control')
}

/** The shipped documents, parsed once: each answer copies one and names its server. */
const shipped = new Map<string, { servers: { url: string }[] }>()

function sendDocument(
  req: Request,
  res: Response,
  next: NextFunction,
  which: 'api' | 'control',
) {
  // The build writes both documents from the zod schemas and the route table
  // (scripts/write-openapi.js); serving those files keeps zod's JSON Schema output, and
  // full zod with it, out of the server and of every bundle of the library.
  const assets = packageAssets()
  const file = which === 'api' ? assets.openApiFile : assets.controlOpenApiFile
  // A package without its built documents: the app's 404, as for any unknown path.
  if (file === undefined) return next()
  let document = shipped.get(file)
  if (document === undefined) {
    document = JSON.parse(readFileSync(file, 'utf8')) as { servers: { url: string }[] }
    shipped.set(file, document)
  }
  // The documents name the server they were fetched from, so "try it" tools and
  // generated clients call it: its origin (the Host was checked before routing) and the
  // path the app is mounted at, if any (`app.use('/mock', createSandboxApp())`).
  const origin = requestUrl(req, req.headers.host ?? 'localhost', '/').origin
  const serverUrl = `${origin}${req.baseUrl}`
  const [first, ...others] = document.servers
  const url = which === 'api' ? apiServerUrl(serverUrl) : controlServerUrl(serverUrl)
  const text = JSON.stringify(
    { ...document, servers: [{ ...first, url }, ...others] },
    null,
    2,
  )
  res.writeHead(200, {
    'content-type': 'application/json',
    'content-length': Buffer.byteLength(text),
  })
  res.end(text)
}
