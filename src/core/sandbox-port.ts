import {
  anonymousRateLimitHeaders,
  answerRefusedRequest,
  handleApiRequest,
  journalOverride,
} from './api.js'
import { Failure, type HeaderMap, type Reply } from './api-errors.js'
import type { KnownKey } from './auth.js'
import { matchBase, type ApiBase } from './base-url.js'
import { handleControlRequest } from './control.js'
import { checkTarget, targetPath } from './request-target.js'
import { forbiddenSessionOrigin } from './request-trust.js'
import { CONTROL_PATH } from './routes.js'
import type { RequestHandler } from 'msw'
import type { Sandbox, World } from './sandbox-types.js'
import {
  DEFAULT_SESSION,
  SESSION_CREATED_HEADER,
  selectSession,
  type SessionRegistry,
} from './sessions.js'
import type { SandboxWorld } from './world.js'

/** What the port reads of its sandbox. */
export interface PortSandbox {
  readonly bases: ApiBase[]
  keys(): Map<string, KnownKey>
  /** The default world. */
  readonly main: SandboxWorld
  readonly sessions: SessionRegistry<SandboxWorld>
  /** The world of a session id, made if it is not live (the default one for `default`). */
  worldOf(id: string): { world: SandboxWorld; created: boolean }
  /** The world as its users see it: the sandbox itself for the default one. */
  face(world: SandboxWorld): World
  readonly sandbox: Sandbox
}

/** What a transport knows of a request besides the Fetch Request. */
export interface HandleInit {
  /** The body, when the transport has read it already (the request then has none). */
  body?: Uint8Array
  /** The path and query as the client sent them, before any URL parser normalised them. */
  target?: string
  /**
   * The request's `Origin`, when the server does not trust it (the standalone app's
   * rule, README.md#security): a `/v1` request may then use the default session and
   * live ones, but one naming a session that does not exist is 403 `forbidden_origin`
   * instead of making it. msw runtimes leave it out: what they intercept comes from the
   * process itself, or from pages of the worker's own origin.
   */
  untrustedOrigin?: string
}

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
}

const ports = new WeakMap<Sandbox, Port>()

/** Ties a sandbox to its port (createSandbox does, once). */
export function registerPort(sandbox: Sandbox, port: Port): void {
  ports.set(sandbox, port)
}

/** The port of a sandbox made by `createSandbox`. */
export function portOf(sandbox: Sandbox): Port {
  const port = ports.get(sandbox)
  if (!port) throw new TypeError('Not a sandbox made by createSandbox()')
  return port
}

export function createPort(host: PortSandbox): Omit<Port, 'useOverrides'> {
  const { bases, main, sessions } = host
  /**
   * Which of the sandbox's scopes a URL is in, the one decision of "is this mine?" that
   * every adapter and the handlers share. A target that fails `checkTarget` (as sent,
   * before any routing) is the sandbox's to refuse when either reading of its path, as
   * sent or as the URL parser normalised it, is under one of its base paths.
   */
  const scopeOf = (url: URL, target = `${url.pathname}${url.search}`) => {
    const api = matchBase(bases, url.origin, url.pathname, (base) => base.path)
    const control = api
      ? undefined
      : matchBase(bases, url.origin, url.pathname, () => CONTROL_PATH)
    const unsafe = checkTarget(target)
    if (!unsafe) return api || control ? { api, control } : undefined
    const sentPath = targetPath(target)
    const claimed =
      api ??
      control ??
      matchBase(bases, url.origin, sentPath, (base) => base.path) ??
      matchBase(bases, url.origin, sentPath, () => CONTROL_PATH)
    return claimed ? { api, control, unsafe } : undefined
  }

  return {
    owns: (url, target) => scopeOf(url, target) !== undefined,
    async handle(request, init = {}) {
      const url = new URL(request.url)
      const target = init.target ?? `${url.pathname}${url.search}`
      const scope = scopeOf(url, target)
      if (!scope) return undefined
      if (scope.unsafe) return answerRefusedRequest(main, request, scope.unsafe, target)
      const { api, control } = scope
      const keys = host.keys()
      const selection = selectSession(request, (key) => keys.has(key))
      if (selection instanceof Failure) {
        return answerRefusedRequest(main, request, selection, target)
      }
      const body = async () => init.body ?? new Uint8Array(await request.arrayBuffer())
      let created = false
      let reply: Reply | undefined
      if (api) {
        const { untrustedOrigin } = init
        if (
          untrustedOrigin !== undefined &&
          selection.id !== DEFAULT_SESSION &&
          !sessions.peek(selection.id)
        ) {
          const refused = forbiddenSessionOrigin(untrustedOrigin, selection.id)
          return answerRefusedRequest(main, request, refused, target)
        }
        const named = host.worldOf(selection.id)
        created = named.created
        reply = await handleApiRequest(named.world, {
          request,
          url,
          apiBase: api.base.path,
          rest: api.rest,
          authorization: selection.authorization,
          body,
        })
      } else if (control) {
        reply = await handleControlRequest(host.sandbox, {
          request,
          url,
          rest: control.rest,
          body,
          // Made only when an endpoint acts on it (not for /__sandbox/sessions).
          session() {
            const named = host.worldOf(selection.id)
            created ||= named.created
            return host.face(named.world)
          },
        })
      }
      if (reply && created) {
        reply.headers = { ...reply.headers, [SESSION_CREATED_HEADER]: 'true' }
      }
      return reply
    },
    refuse: (request, failure: Failure, target) =>
      answerRefusedRequest(main, request, failure, target),
    rateLimitHeaders: () => anonymousRateLimitHeaders(main),
    recordOverride(request, status) {
      // In the journal of the session the request named, when that session is live.
      const keys = host.keys()
      const selection = selectSession(request, (key) => keys.has(key))
      const world = selection instanceof Failure ? undefined : sessions.peek(selection.id)
      journalOverride(world ?? main, request, status)
    },
  }
}
