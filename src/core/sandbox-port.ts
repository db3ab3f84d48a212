import {
  anonymousRateLimitHeaders,
  answerRefusedRequest,
  handleApiRequest,
  journalOverride,
} from './api.js'
import { Failure, type Reply } from './api-errors.js'
import type { KnownKey } from './auth.js'
import { matchBase, type ApiBase } from './base-url.js'
import { handleControlRequest } from './control.js'
import { checkTarget, targetPath } from './request-target.js'
import { forbiddenSessionOrigin } from './request-trust.js'
import { CONTROL_PATH } from './routes.js'
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

/** The sandbox's one port: where adapters and handlers hand it requests. */
export type Port = Pick<
  Sandbox,
  'owns' | 'handle' | 'refuse' | 'rateLimitHeaders' | 'recordOverride'
>

export function createPort(host: PortSandbox): Port {
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
