import type { RequestHandler } from 'msw'
import type { Failure } from '../http/api-errors.js'
import type { TargetCheck } from '../http/request-target.js'
import type { HandleInit, Scope } from './pipeline.js'
import type { HeaderMap, Reply } from '../http/reply.js'
import type { Sandbox } from '../world/sandbox-types.js'
import type { CarryingInternals } from '../world/session-carry.js'
import type { AnsweredRequests } from './answered-requests.js'

/**
 * The sandbox's one port: where adapters and handlers hand it requests (its Pipeline,
 * with what the owner adds). Not on the public `Sandbox` type (as msw keeps its
 * `#network` private): the sandbox holds it under a symbol no entry re-exports, and
 * adapters reach it with `portOf(sandbox)`.
 */
export interface Port {
  /**
   * Answers a request of the API or the control API, or undefined when the URL is
   * neither's (the caller goes on to other handlers). The msw handlers wrap it.
   */
  handle(request: Request, init?: HandleInit): Promise<Reply | undefined>
  /**
   * Which scope of the sandbox's this URL is in (`target`: the path and query as sent),
   * undefined when `handle` would not answer it: the decision a server adapter makes
   * before it reads a body, handed to `handle` (HandleInit `scope`) so it is made once.
   * `check`: how the target is checked (Pipeline `scope`): a server gives `checkTarget`
   * (request-target.ts), or null when it refused every target that is not one already.
   */
  scope(url: URL, target?: string, check?: TargetCheck | null): Scope | undefined
  /**
   * The answer to a request a server refused before the API read it (a body over its
   * limit, a Host that is not one): the Error body, the caller's rate-limit headers (not
   * counted) and a journal entry. `target` is the path as sent.
   */
  refuse(request: Request, failure: Failure, target?: string): Reply
  /**
   * The rate-limit headers of an answer a server gives before it can read a request (a
   * 431, 408 or 400 on the socket): the anonymous plan's window, not counted.
   */
  rateLimitHeaders(): HeaderMap
  /** Journals a request one of the user's handlers answered, marked as an override. */
  recordOverride(request: Request, status: number): void
  /**
   * Replaces the user's handlers for runtimes that read them per request (the Express
   * adapter, the CLI's `--watch`); `setupServer`/`setupWorker` keep the list they got.
   */
  useOverrides(handlers: readonly RequestHandler[]): void
  /**
   * What the control API's import uses beyond `importSession`: it checks an export
   * itself, to name its fields as the body's (`from.pets[3].name`), then imports it as
   * checked (session-carry.ts).
   */
  readonly carrying: CarryingInternals
  /** The requests the sandbox's own msw handler answered (handlers.ts, attach-sandbox.ts). */
  readonly answered: AnsweredRequests
}

/** Where a sandbox made by `createSandbox` holds its port. */
export const PORT: unique symbol = Symbol('petstore-sandbox port')

/** The port of a sandbox made by `createSandbox`. */
export function portOf(sandbox: Sandbox): Port {
  const port = (sandbox as { [PORT]?: Port })[PORT]
  if (!port) throw new TypeError('Not a sandbox made by createSandbox()')
  return port
}
