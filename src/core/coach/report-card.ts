import type { JournalEntry } from './journal.js'
import { clientOf, fieldsOf, type ClientLibrary } from './report-card-text.js'
import { bodyHash, CreateWatch } from './report-creates.js'
import { failureOf, RetryRuns } from './report-retries.js'
import { Tallies } from './report-tallies.js'

export { REPORT_EXAMPLES } from './report-tallies.js'
export {
  FINDING_CODES,
  type Finding,
  type FindingCode,
  type Severity,
} from './findings.js'
import type { Finding, FindingCode, Severity } from './findings.js'
import { OPERATIONS, type Operation, type Scenario } from '../scenarios/scenarios.js'

// The report card grades the developer's client from every /v1 request of a world
// since it started or was reset (docs/report-card.md). It is fed once per journalled
// request and keeps counters, never requests: the journal is bounded and forgets, the
// card must not, and a world that sees millions of requests must stay small.

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
  /**
   * The rate-limit window the request counted in (`limitWindow`): runs of retries are
   * judged per window. The request's key when left out.
   */
  window?: string
  /** The request's headers: its `User-Agent` names the library a fix can speak of. */
  headers?: { get(name: string): string | null }
  /**
   * The last request id that had arrived at the world when this one was answered: a
   * request with a higher id was sent after the client could know this answer. This
   * request's own id when left out.
   */
  issued?: number
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
  | 'rateLimit'
  | 'override'
  | 'body'
> &
  Partial<Pick<JournalEntry, 'path' | 'durationMs'>> & { dropped?: true }

export { DUPLICATE_WINDOW_MS } from './report-creates.js'

/**
 * The report card of one world. It allocates nothing for requests that need no finding
 * (a world with a well-behaved client holds one number), then a map of small tallies
 * and, per key that got a 429 or created a pet, a few numbers.
 */
export class ReportCard {
  #requests = 0
  #tallies: Tallies | undefined
  #runs: RetryRuns | undefined
  #creates: CreateWatch | undefined

  /** Notes one journalled /v1 request. */
  observe(entry: ObservedEntry, context: ObserveContext): void {
    this.#requests++
    const key = entry.key
    // Your own handlers answered it: their answers are yours, not the client's doing.
    // A GET they answered still showed the client what exists (see blind_retry).
    if (entry.override) {
      if (key !== undefined && entry.method === 'GET' && isSuccess(entry.status)) {
        this.#creates?.read(key)
      }
      return
    }
    if (entry.dropped) {
      this.#note('connection_dropped', 'info', '', entry.id)
      if (key !== undefined) this.#keyed(entry, key, context.window ?? key, context)
      return
    }
    const { code, status } = entry
    const forced = forcedByScenario(entry, context.scenario)

    // A request already in flight when the 429 was answered did not ignore it.
    const window = key === undefined ? undefined : (context.window ?? key)
    if (entry.ignoredRetryAfter && !(window && this.#runs?.inFlight(window, entry.id))) {
      const early =
        window === undefined || this.#runs === undefined || context.clock.state().frozen
          ? undefined
          : this.#runs.early(window, { id: entry.id, at: Date.parse(entry.at) })
      this.#note('retry_before_retry_after', 'error', '', entry.id, early, context)
    }
    if (code === 'api_key_temporarily_banned') {
      const left = entry.rateLimit?.retryAfter
      const detail =
        left === undefined
          ? undefined
          : `The latest came with ${left} s of the ban to run.`
      this.#note('api_key_banned', 'error', '', entry.id, detail)
    } else if (code === 'rate_limit_exceeded') {
      const asked = entry.rateLimit?.retryAfter
      const detail =
        asked === undefined
          ? undefined
          : `The latest asked the client to wait ${asked} s.`
      this.#note('rate_limit_exceeded', 'info', '', entry.id, detail)
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
    if (key !== undefined && window !== undefined)
      this.#keyed(entry, key, window, context)
  }

  /** Forgets everything: the world was reset. */
  reset(): void {
    this.#requests = 0
    this.#tallies = undefined
    this.#runs = undefined
    this.#creates = undefined
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
   * What a request with a key adds beyond its own answer: its place in a run of retries
   * (backoff), and for creates, duplicates and blind retries. Backoff and duplicates are
   * off while the clock stands still, when every request has the same time; a run does
   * not reach across a freeze.
   */
  #keyed(entry: ObservedEntry, key: string, window: string, context: ObserveContext) {
    const failure = failureOf(entry)
    const operation = entry.operation
    const creating = operation === 'createPet'
    // A read that showed the client the pets (a 2xx, or getPet's 404): a later create
    // is no blind retry.
    if (
      (operation === 'listPets' || operation === 'getPet') &&
      (isSuccess(entry.status) || (operation === 'getPet' && entry.status === 404))
    ) {
      this.#creates?.read(key)
    }
    // Most requests are neither a failure, nor a retry, nor a create: no time to read,
    // and no clock to ask (its state builds a date string).
    if (failure === undefined && !creating && !this.#runs?.has(window)) return
    const frozen = context.clock.state().frozen
    const at = Date.parse(entry.at)
    if (frozen) this.#runs?.clear()
    else if (failure !== undefined || this.#runs?.has(window)) {
      const flat = (this.#runs ??= new RetryRuns()).step(window, {
        id: entry.id,
        at,
        durationMs: entry.durationMs ?? 0,
        request: `${entry.method} ${entry.path ?? ''}`,
        issued: Math.max(context.issued ?? entry.id, entry.id),
        failure,
        retryAfter: entry.rateLimit?.retryAfter,
      })
      if (flat) {
        this.#note('no_exponential_backoff', 'warning', '', entry.id, flat, context)
      }
    }
    if (!creating) return
    const [hash, length] = bodyHash(context.body, entry.body ?? '')
    const found = (this.#creates ??= new CreateWatch()).create(key, {
      hash,
      length,
      at: frozen ? undefined : at,
      dropped: entry.dropped === true,
      created: entry.status === 201,
    })
    if (found.blind !== undefined) {
      this.#note('blind_retry', 'warning', '', entry.id, found.blind, context)
    }
    if (found.duplicate !== undefined) {
      this.#note('duplicate_create', 'info', '', entry.id, found.duplicate)
    }
  }

  #note(
    code: FindingCode,
    severity: Severity,
    group: string,
    id: number,
    detail?: string,
    context?: ObserveContext,
  ) {
    const client: ClientLibrary | undefined =
      context && clientOf(context.headers?.get('user-agent'))
    ;(this.#tallies ??= new Tallies()).note(code, severity, group, id, detail, client)
  }
}

function isSuccess(status: number): boolean {
  return status >= 200 && status < 300
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
