import { http, type HttpHandler } from 'msw'
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
    http.all(
      basePattern(sandbox.bases, (base) => base.path),
      ({ request }) => handleApiRequest(ctx, request),
    ),
    http.all(
      basePattern(sandbox.bases, () => CONTROL_PATH),
      ({ request }) => handleControlRequest(sandbox, request),
    ),
  ]
}
