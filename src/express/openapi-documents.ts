import type { NextFunction, Request, Response } from 'express'
import { errorReply } from '../core/api-errors.js'
import { methodNotAllowed } from '../core/route-outcome.js'
import { PAGE_ALLOW } from './page-methods.js'
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
export function serveApiDocument(req: Request, res: Response) {
  // The promise goes back to Express 5, which hands a failure to the app's error handler.
  return sendDocument(req, res, 'api')
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
  return sendDocument(req, res, 'control')
}

async function sendDocument(req: Request, res: Response, which: 'api' | 'control') {
  // Loaded on first use: zod's JSON Schema output is no part of the server's startup.
  const { createControlOpenApiDocument, createOpenApiDocument } =
    await import('../openapi/create-openapi-document.js')
  // The documents name the server they were fetched from, so "try it" tools and
  // generated clients call it: its origin (the Host was checked before routing) and the
  // path the app is mounted at, if any (`app.use('/mock', createSandboxApp())`).
  const origin = requestUrl(req, req.headers.host ?? 'localhost', '/').origin
  const serverUrl = `${origin}${req.baseUrl}`
  const create = which === 'api' ? createOpenApiDocument : createControlOpenApiDocument
  const document = JSON.stringify(create({ serverUrl }), null, 2)
  res.writeHead(200, {
    'content-type': 'application/json',
    'content-length': Buffer.byteLength(document),
  })
  res.end(document)
}
