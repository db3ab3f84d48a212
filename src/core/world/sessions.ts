import { fail, type Failure } from '../http/api-errors.js'
import { truncate } from '../common/text.js'

/** Names the session a request belongs to; no header is the default session. */
export const SESSION_HEADER = 'x-sandbox-session'

/** On the response whose request created (or re-created, after expiry) its session. */
export const SESSION_CREATED_HEADER = 'x-sandbox-session-created'

/** The default session's id: the sandbox as it is without sessions. */
export const DEFAULT_SESSION = 'default'

const SESSION_ID = /^[A-Za-z0-9_-]{1,64}$/

/** Defaults documented in docs/sessions.md. */
export const DEFAULT_MAX_SESSIONS = 1_000
export const DEFAULT_SESSION_TTL_SECONDS = 3_600

/** Which session a request names, and its Authorization with a session key's session part removed. */
export interface SessionSelection {
  id: string
  /** `Bearer sandbox-free-key` for `Bearer sandbox-free-key.alice`; the header otherwise. */
  authorization: string | null
}

const BEARER_TOKEN = /^(\s*bearer\s+)(\S+)(\s*)$/i

/**
 * Reads the session a request names: the `X-Sandbox-Session` header, or a session key
 * (`<demo key>.<session id>`) as its bearer token. Both naming different sessions is
 * 400 `session_conflict`; an id outside `[A-Za-z0-9_-]{1,64}` is 400 `invalid_session`.
 */
export function selectSession(
  request: Request,
  isDemoKey: (key: string) => boolean,
): SessionSelection | Failure {
  const header = request.headers.get(SESSION_HEADER)?.trim() || null
  if (header !== null && !SESSION_ID.test(header)) {
    return fail(
      'invalid_session',
      `The ${SESSION_HEADER} header ${JSON.stringify(truncate(header, 70))} is not a session id: use 1 to 64 letters, digits, "-" or "_", e.g. "${SESSION_HEADER}: worker-1".`,
    )
  }
  let authorization = request.headers.get('authorization')
  let fromKey: string | null = null
  const bearer = authorization === null ? null : BEARER_TOKEN.exec(authorization)
  const token = bearer?.[2]
  const dot = token?.indexOf('.') ?? -1
  if (bearer && token && dot > 0 && isDemoKey(token.slice(0, dot))) {
    const key = token.slice(0, dot)
    fromKey = token.slice(dot + 1)
    if (!SESSION_ID.test(fromKey)) {
      return fail(
        'invalid_session',
        `The session part of the key "${key}.${truncate(fromKey, 70)}" is not a session id: after "${key}." use 1 to 64 letters, digits, "-" or "_", e.g. ${key}.alice.`,
      )
    }
    authorization = `${bearer[1]}${key}${bearer[3]}`
  }
  if (header !== null && fromKey !== null && header !== fromKey) {
    return fail(
      'session_conflict',
      `The ${SESSION_HEADER} header names the session "${header}" and the API key the session "${fromKey}". Name one session: drop the header, or use the key of that session.`,
    )
  }
  return { id: header ?? fromKey ?? DEFAULT_SESSION, authorization }
}

/** A session id nobody chose: 16 letters and digits from a random source. */
export function generateSessionId(): string {
  const alphabet = 'abcdefghijkmnopqrstuvwxyz23456789'
  const bytes = crypto.getRandomValues(new Uint8Array(16))
  return Array.from(bytes, (byte) => alphabet[byte % alphabet.length]).join('')
}

/** Whether a text is a session id (for ids in a body or a path). */
export function isSessionId(id: string): boolean {
  return SESSION_ID.test(id)
}

/** A live session: what the registry needs to know of it. */
export interface SessionEntry {
  readonly id: string
  readonly createdAt: number
  lastUsedAt: number
  /** Called once the session is gone (expired, evicted or ended): frees what it held. */
  dispose?(): void
}

/** A session in the registry's recency list. */
interface Link<Session> {
  readonly session: Session
  prev: Link<Session> | undefined
  next: Link<Session> | undefined
}

/**
 * The latest time a Date can hold (year 275760): an idle-time source's value past it (or
 * not a number) is not used, so a session's `createdAt` and `lastUsedAt` stay dates.
 */
export const LATEST_MS = 8.64e15

/**
 * The time sessions idle by: `source` (the `idleNow` option, real time by default), never
 * a sandbox clock, so moving a clock ends no session. A value that is no time (NaN, past
 * what a Date holds) is not taken: time stands still until the source gives one again.
 */
export function idleTime(source: () => number = () => Date.now()): () => number {
  let last = Date.now()
  return () => {
    const now = source()
    if (typeof now === 'number' && Math.abs(now) <= LATEST_MS) last = now
    return last
  }
}

/**
 * The live sessions, least recently used first. At most `max` live; one idle for `ttlMs`
 * (by `now`, the idle time of `idleTime`: real time, never a sandbox clock) has expired,
 * and is made anew when named again.
 *
 * The order is a doubly linked list beside the Map, so a use moves its session to the end
 * with four pointer writes. Moving it with `Map#delete` and `Map#set`, which keep insertion
 * order, costs about 24 microseconds a request once 10,000 sessions are live (V8 rehashes
 * the table as deleted entries pile up): a tenth of the time of a whole GET.
 */
export class SessionRegistry<Session extends SessionEntry> {
  readonly #links = new Map<string, Link<Session>>()
  /** The least recently used. */
  #head: Link<Session> | undefined
  /** The most recently used. */
  #tail: Link<Session> | undefined

  constructor(
    private readonly create: (id: string, now: number) => Session,
    private readonly now: () => number,
    readonly max: number,
    readonly ttlMs: number,
  ) {}

  /** The session, made (anew, when it had expired) if needed. */
  use(id: string): { session: Session; created: boolean } {
    const now = this.now()
    this.#sweep(now)
    const link = this.#links.get(id)
    if (link && !this.#expired(link.session, now)) {
      if (link !== this.#tail) {
        this.#unlink(link)
        this.#append(link)
      }
      link.session.lastUsedAt = now
      return { session: link.session, created: false }
    }
    if (link) this.#drop(link)
    this.#evict()
    const session = this.create(id, now)
    const added: Link<Session> = { session, prev: undefined, next: undefined }
    this.#links.set(id, added)
    this.#append(added)
    return { session, created: true }
  }

  /** The live session, without making or touching it. */
  peek(id: string): Session | undefined {
    const now = this.now()
    this.#sweep(now)
    const session = this.#links.get(id)?.session
    return session && !this.#expired(session, now) ? session : undefined
  }

  /**
   * Ends the sessions that have expired, giving back what they held: every use, read
   * and list of the registry does it, and the sandbox at each request of the default
   * session, so an expired session is not kept until the next one is made.
   */
  sweep(): void {
    this.#sweep(this.now())
  }

  /**
   * The session as it would start, not kept: what a read of one that is not live sees
   * (its empty journal, the seeded pets, the startup scenario), without making it.
   */
  preview(id: string): Session {
    return this.create(id, this.now())
  }

  delete(id: string): boolean {
    const now = this.now()
    this.#sweep(now)
    const link = this.#links.get(id)
    if (!link || this.#expired(link.session, now)) return false
    this.#drop(link)
    return true
  }

  /** The live sessions, least recently used first; the expired ones it passes end. */
  list(): Session[] {
    const now = this.now()
    const live: Session[] = []
    for (let link = this.#head; link;) {
      const next = link.next
      if (this.#expired(link.session, now)) this.#drop(link)
      else live.push(link.session)
      link = next
    }
    return live
  }

  get size() {
    return this.#links.size
  }

  #expired(session: Session, now: number) {
    return now - session.lastUsedAt > this.ttlMs
  }

  /** Drops the least recently used while full (`use` dropped the expired ones first). */
  #evict() {
    while (this.#head && this.#links.size >= this.max) this.#drop(this.#head)
  }

  /**
   * Drops the expired sessions that lead the order. One that an idle time set back left
   * behind a live one goes at the next `list()`, which looks at every session.
   */
  #sweep(now: number) {
    while (this.#head && this.#expired(this.#head.session, now)) this.#drop(this.#head)
  }

  #append(link: Link<Session>) {
    link.prev = this.#tail
    link.next = undefined
    if (this.#tail) this.#tail.next = link
    else this.#head = link
    this.#tail = link
  }

  #unlink(link: Link<Session>) {
    if (link.prev) link.prev.next = link.next
    else this.#head = link.next
    if (link.next) link.next.prev = link.prev
    else this.#tail = link.prev
    link.prev = link.next = undefined
  }

  #drop(link: Link<Session>) {
    this.#unlink(link)
    this.#links.delete(link.session.id)
    link.session.dispose?.()
  }
}
