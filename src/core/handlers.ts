import { http, type HttpHandler } from 'msw'
import { toResponse, type Reply } from './api-errors.js'
import { basePattern } from './base-url.js'
import { CONTROL_PATH } from './routes.js'
import type { HandleInit, Sandbox } from './sandbox.js'

/** The resolver of a sandbox handler: a response, or undefined to let msw go on. */
export type SandboxResolver = (request: Request) => Promise<Response | undefined>

/**
 * How a runtime's transport meets the handlers. Every field is optional; without any the
 * handlers are plain `http.all` handlers answering ordinary Fetch responses, which is
 * what tests and the browser get.
 */
export interface HandlerTransport {
  /** What the transport knows of a request besides the Fetch Request (its body bytes, the path as sent). */
  init?(request: Request): HandleInit | undefined
  /** Turns the core's reply into the Response msw hands back. */
  respond?(reply: Reply, request: Request): Response
  /** Builds the msw handler; `http.all(pattern, ...)` by default. */
  define?(pattern: RegExp, resolve: SandboxResolver): HttpHandler
}

/**
 * The msw handler of a sandbox: one `http.all` over the API's base paths and the control
 * API's, a thin wrapper over `sandbox.handle`. Routing happens in the core, so unknown
 * paths and wrong methods get the API's Error body (never msw's "unhandled request"
 * warning) in every runtime.
 */
export function createSandboxHandlers(
  sandbox: Sandbox,
  transport: HandlerTransport = {},
): HttpHandler[] {
  const pattern = basePattern(sandbox.bases, (base) => [base.path, CONTROL_PATH])
  const respond = transport.respond ?? toResponse
  const resolve: SandboxResolver = async (request) => {
    const reply = await sandbox.handle(request, transport.init?.(request))
    return reply && respond(reply, request)
  }
  return [
    transport.define
      ? transport.define(pattern, resolve)
      : http.all(pattern, ({ request }) => resolve(request)),
  ]
}
