import type { JournalEntry } from './journal.js'
import { fieldsOf } from './report-card-text.js'
import { Tallies } from './report-tallies.js'

export { REPORT_EXAMPLES } from './report-tallies.js'
import { OPERATIONS, type Operation, type Scenario } from './scenarios.js'

// The report card grades the developer's client from every /v1 request of a world
// since it started or was reset (docs/report-card.md). It is fed once per journalled
// request and keeps counters, never requests: the journal is bounded and forgets, the
// card must not, and a world that sees millions of requests must stay small.

/** How serious a finding is: `error` and `warning` are the client's to fix. */
export type Severity = 'error' | 'warning' | 'info'

/** The codes of the report card (docs/report-card.md), most serious first. */
export const FINDING_CODES = [
  'retry_before_retry_after',
  'api_key_banned',
  'endpoint_removed',
  'no_exponential_backoff',
  'deprecated_endpoint',
  'invalid_request',
  'authentication_failed',
  'rate_limit_exceeded',
  'duplicate_create',
  'unmodelled_endpoint',
  'connection_dropped',
] as const

/** A code of {@link FINDING_CODES}. */
export type FindingCode = (typeof FINDING_CODES)[number]

/** One thing the client did, how often, and what to change. */
export interface Finding {
  code: FindingCode
  severity: Severity
  /** How many requests showed it. */
  count: number
  /** What happened and why it matters in production. */
  message: string
  /** What to change in the client. */
  fix: string
  /** The ids of the 5 most recent requests that showed it, newest first. */
  requestIds: number[]
}

/** What `GET /__sandbox/report`, `sandbox.report()` and `session.report()` answer. */
export interface Report {
  session: string
  /** Sandbox-clock time the world started or was last reset. */
  since: string
  /** Requests of the world since then. */
  requests: number
  /** The clock stands still: backoff and duplicate findings are not computed. */
  clockFrozen?: true
  /** Errors first, then warnings, then info; by code within each. */
  findings: Finding[]
}

/** What the card needs to know of a request beyond its journal entry. */
export interface ObserveContext {
  /** The scenario the request ran under (its header's, its key's, the world's). */
  scenario: Pick<Scenario, 'name' | 'auth' | 'errors'>
  /** The request body as sent, hashed for `duplicate_create` and never kept. */
  body?: Uint8Array
  /** The sandbox clock: the time-based findings ask whether it stands still. */
  clock: { state(): { frozen: boolean } }
}

/** A journal entry as the card reads it: a dropped connection is marked so. */
export type ObservedEntry = Pick<
  JournalEntry,
  | 'id'
  | 'at'
  | 'method'
  | 'status'
  | 'key'
  | 'operation'
  | 'code'
  | 'message'
  | 'deprecated'
  | 'ignoredRetryAfter'
  | 'override'
  | 'body'
> & { dropped?: true }

/** Two identical creates of one key at most this far apart are a duplicate. */
export const DUPLICATE_WINDOW_MS = 10_000
/** The retry of a run from which flat waits are a finding. */
export const BACKOFF_RETRIES = 3
/** A wait counts as longer than the previous one when it is at least this much longer. */
export const BACKOFF_GROWTH_MS = 100
/** The most recent creates of one key the card remembers, for duplicates. */
const CREATES_KEPT = 4

/** What the time-based findings remember of one key. Made at its first 429 or create. */
interface KeyState {
  /** The key's previous request was answered 429: the next one is a retry. */
  after429: boolean
  /** Sandbox time of the key's previous request, while `after429`. */
  lastAt: number
  /** Retries in the current run (requests since the first 429, each after a 429). */
  retries: number
  /** The wait before the previous retry of the run. */
  lastGap: number
  /** The key's last CREATES_KEPT creates that made a pet: hash, length, time, ... */
  creates: number[] | undefined
}

/**
 * The report card of one world. It allocates nothing for requests that need no finding
 * (a world with a well-behaved client holds one number), then a map of small tallies
 * and, per key that got a 429 or created a pet, a few numbers.
 */
export class ReportCard {
  #requests = 0
  #tallies: Tallies | undefined
  // Most worlds see one key: its state is kept in fields, and a Map (whose table alone
  // is 150 bytes) is made for a second key, as the rate limiter does.
  #firstKey: string | undefined
  #first: KeyState | undefined
  #others: Map<string, KeyState> | undefined

  /** Notes one journalled /v1 request. */
  observe(entry: ObservedEntry, context: ObserveContext): void {
    this.#requests++
    // Your own handlers answered it: their answers are yours, not the client's doing.
    if (entry.override) return
    if (entry.dropped) {
      this.#note('connection_dropped', 'info', '', entry.id)
      return
    }
    const { code, status } = entry
    const forced = forcedByScenario(entry, context.scenario)

    if (entry.ignoredRetryAfter) {
      this.#note('retry_before_retry_after', 'error', '', entry.id)
    }
    if (code === 'api_key_temporarily_banned') {
      this.#note('api_key_banned', 'error', '', entry.id)
    } else if (code === 'rate_limit_exceeded') {
      this.#note('rate_limit_exceeded', 'info', '', entry.id)
    }
    if (code === 'endpoint_removed') {
      this.#note('endpoint_removed', forced ? 'info' : 'error', '', entry.id)
    } else if (entry.deprecated) {
      this.#note('deprecated_endpoint', 'warning', '', entry.id)
    }
    if (status === 400 && code !== undefined) {
      if (forced) this.#note('invalid_request', 'info', code, entry.id)
      else {
        for (const field of fieldsOf(code, entry.message)) {
          const group = field ? `${code} ${field}` : code
          this.#note('invalid_request', 'warning', group, entry.id)
        }
      }
    }
    if (status === 401 && code !== undefined) {
      const chosen = authFailureChosen(code, context.scenario)
      this.#note('authentication_failed', chosen ? 'info' : 'warning', code, entry.id)
    }
    if (entry.operation === 'listOrders') {
      this.#note('unmodelled_endpoint', 'info', '', entry.id)
    }
    if (entry.key !== undefined) this.#timed(entry, entry.key, context)
  }

  /** Forgets everything: the world was reset. */
  reset(): void {
    this.#requests = 0
    this.#tallies = undefined
    this.#firstKey = undefined
    this.#first = undefined
    this.#others = undefined
  }

  /** The report of the world named `session`, which started or was reset at `since`. */
  report(session: string, since: string, clockFrozen: boolean): Report {
    return {
      session,
      since,
      requests: this.#requests,
      ...(clockFrozen ? { clockFrozen: true as const } : {}),
      findings: this.#tallies?.findings() ?? [],
    }
  }

  /**
   * The time-based findings of a request with a key: backoff (its place in a run of
   * retries after 429s) and duplicate creates. Off while the clock stands still, when
   * every request has the same time; a run does not reach across a freeze.
   */
  #timed(entry: ObservedEntry, key: string, context: ObserveContext) {
    const got429 = entry.status === 429
    const created = entry.operation === 'createPet' && entry.status === 201
    let state = key === this.#firstKey ? this.#first : this.#others?.get(key)
    // Most requests are neither a 429, nor a retry, nor a create: no time to read, and
    // no clock to ask (its state builds a date string).
    if (!got429 && !created && !state?.after429) return
    if (context.clock.state().frozen) {
      if (state) state.after429 = false
      return
    }
    const at = Date.parse(entry.at)
    if (!state) {
      state = { after429: false, lastAt: 0, retries: 0, lastGap: 0, creates: undefined }
      if (this.#first === undefined) {
        this.#firstKey = key
        this.#first = state
      } else (this.#others ??= new Map()).set(key, state)
    }
    if (state.after429) {
      const gap = at - state.lastAt
      state.retries++
      // From the third retry of a run on, a wait no longer than the one before is flat.
      if (state.retries >= BACKOFF_RETRIES && gap < state.lastGap + BACKOFF_GROWTH_MS) {
        this.#note('no_exponential_backoff', 'warning', '', entry.id)
      }
      state.lastGap = gap
    }
    if (got429) {
      if (!state.after429) state.retries = 0
      state.after429 = true
      state.lastAt = at
    } else state.after429 = false
    if (created) this.#created(entry, state, at, context.body)
  }

  /** Notes a create that made a pet, and a duplicate when the same body came just before. */
  #created(entry: ObservedEntry, state: KeyState, at: number, body?: Uint8Array) {
    const [hash, length] = body ? hashBytes(body) : hashText(entry.body ?? '')
    const creates = state.creates
    // The first create of a key: an array of exactly its three numbers (a push onto an
    // empty one would reserve room for 17).
    if (!creates) {
      state.creates = [hash, length, at]
      return
    }
    for (let index = 0; index < creates.length; index += 3) {
      const since = at - (creates[index + 2] as number)
      if (
        creates[index] === hash &&
        creates[index + 1] === length &&
        since >= 0 &&
        since <= DUPLICATE_WINDOW_MS
      ) {
        this.#note('duplicate_create', 'info', '', entry.id)
        break
      }
    }
    if (creates.length >= CREATES_KEPT * 3) creates.splice(0, 3)
    creates.push(hash, length, at)
  }

  #note(code: FindingCode, severity: Severity, group: string, id: number) {
    ;(this.#tallies ??= new Tallies()).note(code, severity, group, id)
  }
}

/**
 * Whether the failure of a request is the one its scenario's `errors` forces on its
 * operation, rather than the client's mistake: same status and code, and the
 * scenario's message (or its default, which names the scenario).
 */
function forcedByScenario(
  entry: ObservedEntry,
  scenario: ObserveContext['scenario'],
): boolean {
  const operation = entry.operation
  if (entry.code === undefined || operation === undefined) return false
  // listOrders is not modelled: no scenario forces its answer.
  if (!isOperation(operation)) return false
  const forced = scenario.errors?.[operation] ?? scenario.errors?.['*']
  if (!forced || forced.code !== entry.code || forced.status !== entry.status) {
    return false
  }
  return forced.message !== undefined
    ? entry.message === forced.message
    : (entry.message?.includes(`scenario "${scenario.name}"`) ?? false)
}

/**
 * A 401 the user chose to rehearse: an expired key (a key of the fixtures marked
 * expired, such as sandbox-expired-key, or a scenario that expires every key) or a
 * scenario that rejects every key. A missing or malformed header is the client's.
 */
function authFailureChosen(code: string, scenario: ObserveContext['scenario']): boolean {
  if (code === 'expired_api_key') return true
  return code === 'invalid_api_key' && scenario.auth?.rejectAllKeys === true
}

function isOperation(name: string): name is Operation {
  return (OPERATIONS as readonly string[]).includes(name)
}

// FNV-1a, 32 bits: two bodies are "the same" when hash and length agree. A collision
// would only add an `info` finding, so a cryptographic hash (not in every runtime
// without async) is not needed.
function hashBytes(bytes: Uint8Array): [number, number] {
  let hash = 0x811c9dc5
  for (const byte of bytes) hash = Math.imul(hash ^ byte, 0x01000193)
  return [hash >>> 0, bytes.byteLength]
}

function hashText(text: string): [number, number] {
  let hash = 0x811c9dc5
  for (let index = 0; index < text.length; index++) {
    hash = Math.imul(hash ^ text.charCodeAt(index), 0x01000193)
  }
  return [hash >>> 0, text.length]
}
