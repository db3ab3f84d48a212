import type { RequestHandler } from 'msw'
import type { Failure } from '../http/api-errors.js'
import type { HandleInit } from './pipeline.js'
import type { HeaderMap, Reply } from '../http/reply.js'
import type { Sandbox } from '../world/sandbox-types.js'
import type { CarryingInternals } from '../world/session-carry.js'
import { AnsweredRequests } from './answered-requests.js'

/**
 * The sandbox's one port: where adapters and handlers hand it requests. Not on the
 * public `Sandbox` type (as msw keeps its `#network` private): adapters reach it with
 * `portOf(sandbox)`, which no entry re-exports.
 */
export interface Port {
  /**
   * Answers a request of the API or the control API, or undefined when the URL is
   * neither's (the caller goes on to other handlers). The msw handlers wrap it.
   */
  handle(request: Request, init?: HandleInit): Promise<Reply | undefined>
  /**
   * Whether `handle` answers this URL (`target`: the path and query as sent): the
   * decision a server adapter makes before it reads a body, the same the handlers make.
   */
  owns(url: URL, target?: string): boolean
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

const ports = new WeakMap<Sandbox, Port>()

/** Ties a sandbox to its port (createSandbox does, once), with its record of answered requests. */
export function registerPort(sandbox: Sandbox, port: Omit<Port, 'answered'>): void {
  ports.set(sandbox, { ...port, answered: new AnsweredRequests() })
}

/** The port of a sandbox made by `createSandbox`. */
export function portOf(sandbox: Sandbox): Port {
  const port = ports.get(sandbox)
  if (!port) throw new TypeError('Not a sandbox made by createSandbox()')
  return port
}
