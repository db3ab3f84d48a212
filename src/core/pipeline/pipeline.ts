import type { RequestHandler } from 'msw'
import { answerRefusedRequest, handleApiRequest, journalOverride } from '../api/api.js'
import { anonymousRateLimitHeaders } from '../api/api-limits.js'
import { errorReply, Failure } from '../http/api-errors.js'
import type { KnownKey } from '../api/auth.js'
import { matchBase, type ApiBase } from '../http/base-url.js'
import { handleControlRequest } from '../control/control.js'
import { REQUEST_ID_HEADER, type HeaderMap, type Reply } from '../http/reply.js'
import { checkPathTarget, targetPath, type TargetCheck } from '../http/request-target.js'
import { CONTROL_PATH } from '../control/control-call.js'
import type { Sandbox } from '../world/sandbox-types.js'
import {
  DEFAULT_SESSION,
  SESSION_CREATED_HEADER,
  selectSession,
  type SessionRegistry,
  type SessionSelection,
} from '../world/sessions.js'
import type { SandboxWorld } from '../world/world.js'
import type { CarryingInternals } from '../world/session-carry.js'
import type { ClientConnection } from '../scenarios/latency.js'
import { AnsweredRequests } from './answered-requests.js'

/**
 * What the pipeline reads of the sandbox that owns it (the SandboxOwner of
 * sandbox-owner.ts, which hands itself in).
 */
export interface PipelineHost {
  readonly bases: ApiBase[]
  keys(): Map<string, KnownKey>
  /** The default world, which is the public sandbox (the control API acts on it). */
  readonly main: SandboxWorld & Sandbox
  readonly sessions: SessionRegistry<SandboxWorld>
  /** The world of a session id, made if it is not live (the default one for `default`). */
  worldOf(id: string): { world: SandboxWorld; created: boolean }
  /** The next request id: one counter for every world of the sandbox. */
  nextRequestId(): number
  /** How the sandbox carries sessions out and in (the control API's export, HAR, import). */
  readonly carrying: CarryingInternals
  /** Replaces the user's handlers for runtimes that read them per request (Port `useOverrides`). */
  useOverrides(handlers: readonly RequestHandler[]): void
}

/** What a transport knows of a request besides the Fetch Request. */
export interface HandleInit {
  /** The body, when the transport has read it already (the request then has none). */
  body?: Uint8Array
  /** The path and query as the client sent them, before any URL parser normalised them. */
  target?: string
  /** The request's URL as the transport parsed it already (`request.url` otherwise). */
  url?: URL
  /**
   * The path the server mounts the sandbox under (Express's `req.baseUrl`, `/api` when
   * `/api/v1/pets` reaches it as `/v1/pets`), for the links and messages of its answers.
   */
  mount?: string
  /**
   * The refusal of a `/v1` request naming a session that does not exist, when the
   * server does not trust the request's `Origin` (the standalone app's rule,
   * docs/security.md: such a page may use the default session and live ones, but not
   * make one; request-trust.ts `forbiddenSessionOrigin`, 403 `forbidden_origin`). msw
   * runtimes leave it out: what they intercept comes from the process itself, or from
   * pages of the worker's own origin. A function the server gives, so the rule's words
   * stay out of the browser entry.
   */
  refuseNewSession?: (session: string) => Failure
  /**
   * The client's connection, where the server has one: a scenario's latency stops
   * waiting when the client hangs up (latency.ts `delay`).
   */
  client?: ClientConnection
  /**
   * Takes room for a large answer of about `bytes` before it is built (an export, a
   * HAR): the server's budget of large transfers (express/transfer-budget.ts). A failure
   * (503) when there is none now. msw runtimes leave it out.
   */
  reserve?: (bytes: number) => Failure | undefined
  /**
   * The scope `Pipeline.scope` gave for this URL and target, where the transport asked
   * before reading the body (the Express adapter): the request is not scoped again.
   */
  scope?: Scope
}

/** Which of the sandbox's scopes a request is in, and why it is refused if it is. */
export interface Scope {
  api?: { base: ApiBase; rest: string }
  control?: { base: ApiBase; rest: string }
  /** The target failed `checkTarget`: refused before any routing. */
  unsafe?: Failure
  /** Which API the request is for: only `/v1` requests are journalled and graded. */
  kind: 'api' | 'control'
}

/**
 * The sandbox's one request pipeline, behind every runtime:
 * scope -> session -> (v1) scenario -> auth -> limit -> route -> resolve, or
 * scope -> session -> (control) route -> resolve. Every answer it gives carries a request
 * id; a `/v1` answer is journalled (and counted for the report) under that id. It is the
 * sandbox's port (sandbox-port.ts): what adapters and the msw handlers call.
 */
export class Pipeline {
  readonly #host: PipelineHost
  /** The requests the sandbox's own msw handler answered (handlers.ts, attach-sandbox.ts): this sandbox's alone. */
  readonly answered = new AnsweredRequests()

  constructor(host: PipelineHost) {
    this.#host = host
  }

  /**
   * Which of the sandbox's scopes a URL is in, the one decision of "is this mine?" that
   * every adapter and the handlers share: a server adapter asks it before it reads a
   * body and hands it to `handle` (HandleInit `scope`). A target that fails
   * `check` (as sent, before any routing) is the sandbox's to refuse when either reading
   * of its path, as sent or as the URL parser normalised it, is under one of its base
   * paths. `check`: by default `checkPathTarget` (an msw runtime's targets are paths); a
   * server gives `checkTarget` (request-target.ts), which refuses targets that are not
   * paths too, or null when it refused every target that is not one already.
   */
  scope(
    url: URL,
    target = `${url.pathname}${url.search}`,
    check: TargetCheck | null = checkPathTarget,
  ): Scope | undefined {
    const { bases } = this.#host
    const api = matchBase(bases, url.origin, url.pathname, (base) => base.path)
    const control = api
      ? undefined
      : matchBase(bases, url.origin, url.pathname, () => CONTROL_PATH)
    const unsafe = check?.(target)
    if (!unsafe) {
      if (api) return { api, kind: 'api' }
      return control ? { control, kind: 'control' } : undefined
    }
    const kind = this.#kindOf(url, target)
    return kind ? { ...(api ? { api } : {}), unsafe, kind } : undefined
  }

  /** Answers a request of the API or the control API, or undefined when the URL is neither's. */
  async handle(request: Request, init: HandleInit = {}): Promise<Reply | undefined> {
    const url = init.url ?? new URL(request.url)
    const target = init.target ?? `${url.pathname}${url.search}`
    const scope = init.scope ?? this.scope(url, target)
    if (!scope) return undefined
    const id = this.#host.nextRequestId()
    if (scope.unsafe) {
      return withId(
        this.#refuseIn(scope.kind, request, scope.unsafe, target, id, true),
        id,
      )
    }
    const selection = this.#selectionOf(request)
    if (selection instanceof Failure) {
      const reply = this.#refuseIn(
        scope.kind,
        request,
        selection,
        target,
        id,
        false,
        selection,
      )
      return withId(reply, id)
    }
    const body = async () => init.body ?? new Uint8Array(await request.arrayBuffer())
    const answered = scope.api
      ? await this.#answerApi(request, url, scope.api, init, target, id, selection, body)
      : await this.#answerControl(request, url, scope, init, selection, body)
    if (answered.created) answered.reply.headers[SESSION_CREATED_HEADER] = 'true'
    return withId(answered.reply, id)
  }

  /**
   * The answer to a request a server refused before the pipeline saw it, with its id. A
   * target that is not a path counts wherever it is caught (the standalone app checks
   * targets before any of its pages, the pipeline before routing); what else a server
   * refuses before the API (a body over its limit, a Host or origin it does not trust)
   * does not.
   */
  refuse(request: Request, failure: Failure, target?: string): Reply {
    const id = this.#host.nextRequestId()
    const url = new URL(request.url)
    const kind = this.#kindOf(url, target ?? `${url.pathname}${url.search}`)
    const counted = failure.code === 'invalid_path'
    return withId(this.#refuseIn(kind, request, failure, target, id, counted), id)
  }

  /** The anonymous plan's rate-limit headers, not counted (a 431, 408 or 400 on the socket). */
  rateLimitHeaders(): HeaderMap {
    return anonymousRateLimitHeaders(this.#host.main)
  }

  /** Replaces the user's handlers for runtimes that read them per request (the Express adapter, `--watch`). */
  useOverrides(handlers: readonly RequestHandler[]): void {
    this.#host.useOverrides(handlers)
  }

  /** What the control API's import uses beyond `importSession` (session-carry.ts). */
  get carrying(): CarryingInternals {
    return this.#host.carrying
  }

  /** Journals a request one of the user's handlers answered, in the session it named when live. */
  recordOverride(request: Request, status: number): void {
    const named = this.#liveWorldOf(request)
    journalOverride(
      named?.world ?? this.#host.main,
      request,
      status,
      this.#host.nextRequestId(),
      named ? named.authorization : request.headers.get('authorization'),
    )
  }

  /**
   * Whose request a target is when any reading of its path (as the URL has it, as sent,
   * as a URL parser would normalise it) is under one of the sandbox's bases: the API's
   * first, so a path that could name both (`/__sandbox/../v1/pets`) is answered as a
   * `/v1` one, with the caller's rate-limit headers.
   */
  #kindOf(url: URL, target: string): Scope['kind'] | undefined {
    const { bases } = this.#host
    const sent = targetPath(target)
    let normalised = sent
    try {
      normalised = new URL(sent, url.origin).pathname
    } catch {
      // Not a path a URL parser takes: the sent reading is the only one.
    }
    const paths = [url.pathname, sent, normalised]
    if (paths.some((path) => matchBase(bases, url.origin, path, (base) => base.path)))
      return 'api'
    // As sent, it starts like an API path (`/v1\..\__sandbox/reset`): the client meant one.
    if (bases.some((base) => sent.startsWith(base.path))) return 'api'
    if (paths.some((path) => matchBase(bases, url.origin, path, () => CONTROL_PATH)))
      return 'control'
    return undefined
  }

  /**
   * The session a request names: its id and `Authorization` without a session key's
   * session part, or the failure of a session that cannot be told (a bad id, a header
   * and a key naming two). Decided once a request.
   */
  #selectionOf(request: Request) {
    const keys = this.#host.keys()
    return selectSession(request, (key) => keys.has(key))
  }

  /** The live world a request names (none when its session is not live); undefined when its session cannot be told. */
  #liveWorldOf(request: Request, selection = this.#selectionOf(request)) {
    if (selection instanceof Failure) return undefined
    const { main, sessions } = this.#host
    const world = selection.id === DEFAULT_SESSION ? main : sessions.peek(selection.id)
    return { world, authorization: selection.authorization }
  }

  /**
   * A request refused before routing: a `/v1` one gets the caller's rate-limit headers
   * and a journal entry in its session when that session is live (so the client's
   * mistake shows where its requests are), counted there when `counted`; a control one
   * only the Error body, as control requests are not journalled, and a page's no entry.
   * A refusal makes no session: it leaves the sandbox as it was.
   */
  #refuseIn(
    kind: Scope['kind'] | undefined,
    request: Request,
    failure: Failure,
    target: string | undefined,
    id: number,
    counted: boolean,
    selection = kind === 'api' ? this.#selectionOf(request) : undefined,
  ): Reply {
    const { main } = this.#host
    if (kind === 'control') return errorReply(failure)
    // A page of the standalone server (`/demo/%2e%2e/`, `/__SANDBOX`): not the API's, so
    // not journalled; the anonymous window, as every answer before the API reads one.
    if (kind === undefined) return errorReply(failure, anonymousRateLimitHeaders(main))
    const named = this.#liveWorldOf(request, selection)
    // No session can be told: the default one journals it, and nothing is counted.
    if (!named) return answerRefusedRequest(main, request, failure, target, id)
    return answerRefusedRequest(named.world ?? main, request, failure, target, id, {
      authorization: named.authorization,
      counted: counted && named.world !== undefined,
    })
  }

  async #answerApi(
    request: Request,
    url: URL,
    api: NonNullable<Scope['api']>,
    init: HandleInit,
    target: string,
    id: number,
    selection: SessionSelection,
    body: () => Promise<Uint8Array>,
  ): Promise<{ reply: Reply; created: boolean }> {
    const { main, sessions } = this.#host
    const { refuseNewSession } = init
    if (
      refuseNewSession !== undefined &&
      selection.id !== DEFAULT_SESSION &&
      !sessions.peek(selection.id)
    ) {
      const refused = refuseNewSession(selection.id)
      const reply = answerRefusedRequest(main, request, refused, target, id, {
        authorization: selection.authorization,
        counted: false,
      })
      return { reply, created: false }
    }
    const named = this.#host.worldOf(selection.id)
    const reply = await handleApiRequest(named.world, {
      id,
      request,
      url,
      apiBase: init.mount ? `${init.mount}${api.base.path}` : api.base.path,
      rest: api.rest,
      authorization: selection.authorization,
      body,
      client: init.client,
    })
    return { reply, created: named.created }
  }

  async #answerControl(
    request: Request,
    url: URL,
    scope: Scope,
    init: HandleInit,
    selection: SessionSelection,
    body: () => Promise<Uint8Array>,
  ): Promise<{ reply: Reply; created: boolean }> {
    const host = this.#host
    let created = false
    const reply = await handleControlRequest(host.main, {
      carrying: host.carrying,
      request,
      url,
      rest: (scope.control as { rest: string }).rest,
      body,
      // Made only when an endpoint acts on it (not for /__sandbox/sessions), and
      // never by a read: any site can open a page of the server (the inspector, in a
      // popup) on new session names, so a GET or HEAD of one that is not live sees it
      // as it would start, and nothing is kept.
      session() {
        if (reads(request) && selection.id !== DEFAULT_SESSION)
          return host.sessions.peek(selection.id) ?? host.sessions.preview(selection.id)
        const named = host.worldOf(selection.id)
        created ||= named.created
        return named.world
      },
      findRequest: (wanted) => findRequest(host, wanted),
      ...(init.reserve ? { reserve: init.reserve } : {}),
    })
    return { reply, created }
  }
}

/** A request that only reads (GET, HEAD). */
function reads(request: Request) {
  return request.method === 'GET' || request.method === 'HEAD'
}

/**
 * Stamps a reply with its request id, the id of its journal entry when it has one. Every
 * reply is made for its request, headers included (reply.ts, control.ts): they are
 * stamped in place.
 */
function withId(reply: Reply, id: number): Reply {
  reply.headers[REQUEST_ID_HEADER] = String(id)
  return reply
}

/** A journal entry by request id, from whichever world holds it. */
function findRequest(host: PipelineHost, id: number) {
  const inMain = host.main.journal.find(id)
  if (inMain) return inMain
  for (const world of host.sessions.list()) {
    const entry = world.journal.find(id)
    if (entry) return entry
  }
  return undefined
}
