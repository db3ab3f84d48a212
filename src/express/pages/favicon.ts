import type { Request, Response } from 'express'
import { pageHeaders } from './page-headers.js'

/**
 * The server's icon: the demo's paw, in the pages' accent colour. The pages link it
 * (`/favicon.svg`); `/favicon.ico` answers the same for what a browser shows without a
 * page of ours (`/openapi.json`, `/__sandbox`), so no tab logs a 404 for it. The demo
 * (examples/browser/index.html) carries the same SVG inline, as a `data:` URL, because
 * static servers serve it too.
 */
export const FAVICON_SVG =
  '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 64 64" fill="#0f766e"><ellipse cx="32" cy="42" rx="14" ry="12"/><ellipse cx="14" cy="27" rx="6" ry="8"/><ellipse cx="25" cy="14" rx="6" ry="8"/><ellipse cx="39" cy="14" rx="6" ry="8"/><ellipse cx="50" cy="27" rx="6" ry="8"/></svg>'

/** The paths the icon is served at. */
export const FAVICON_PATHS = ['/favicon.svg', '/favicon.ico'] as const

/** Answers GET and HEAD of the icon, with the headers of every page (CSP, framing, nosniff). */
export function serveFavicon(_req: Request, res: Response) {
  // Node sends no body to a HEAD request.
  res.writeHead(200, {
    ...pageHeaders(),
    'content-type': 'image/svg+xml',
    'content-length': Buffer.byteLength(FAVICON_SVG),
  })
  res.end(FAVICON_SVG)
}
