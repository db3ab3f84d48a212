import {
  probe,
  type Answer,
  type ProbeRequest,
  type Seen,
  type Transport,
} from './probe.js'

// The check's traffic: one request at a time, paced by the server's own X-RateLimit-*
// headers (never more than half of what remains in a window, never below 2 remaining),
// or by a fixed pace; all of it within the run's time budget.

/** The longest a single request may take, whatever is left of the budget. */
const REQUEST_TIMEOUT_MS = 10_000
/** Never spend a window below this many remaining requests. */
const FLOOR = 2

export interface RunnerOptions {
  transport: Transport
  /** Milliseconds between requests, instead of pacing by the headers. */
  pace?: number
  timeoutMs: number
  now?: () => number
  sleep?: (ms: number) => Promise<void>
}

/** The rate-limit headers of an answer, when all three are integers. */
export function rateLimitOf(headers: Headers) {
  const read = (name: string) => {
    const value = headers.get(name)
    return value !== null && /^\d+$/.test(value.trim()) ? Number(value) : undefined
  }
  const limit = read('x-ratelimit-limit')
  const remaining = read('x-ratelimit-remaining')
  const reset = read('x-ratelimit-reset')
  return limit === undefined || remaining === undefined || reset === undefined
    ? undefined
    : { limit, remaining, reset }
}

export type RateLimit = NonNullable<ReturnType<typeof rateLimitOf>>

export class Runner {
  /** Every answer, for the checks that hold all of them to a rule. */
  readonly answers: { request: ProbeRequest; answer: Answer }[] = []
  /** The key's rate limit as last seen. */
  rate: RateLimit | undefined
  sent = 0
  readonly #options: RunnerOptions
  readonly #deadline: number
  readonly #now: () => number
  readonly #sleep: (ms: number) => Promise<void>
  #stopped: string | undefined
  #windowBudget: number | undefined
  #spentInWindow = 0
  #last = 0
  #tooMany = 0

  constructor(options: RunnerOptions) {
    this.#options = options
    this.#now = options.now ?? Date.now
    this.#sleep =
      options.sleep ?? ((ms) => new Promise((resolve) => setTimeout(resolve, ms)))
    this.#deadline = this.#now() + options.timeoutMs
  }

  get transport() {
    return this.#options.transport
  }

  /** Why no more requests are sent, once that is so. */
  get stopped() {
    return this.#stopped
  }

  /** Milliseconds left of the run's budget. */
  left() {
    return this.#deadline - this.#now()
  }

  /** Waits `ms` if the budget allows it; false when it does not. */
  async wait(ms: number) {
    if (ms > this.left()) return false
    if (ms > 0) await this.#sleep(ms)
    return true
  }

  /**
   * Sends `request` once its turn comes. `unpaced` (the rate-limit checks, which spend a
   * window on purpose) skips the pacing but not the budget.
   */
  async send(request: ProbeRequest, unpaced = false): Promise<Seen> {
    const refused = this.#stopped ?? (unpaced ? undefined : await this.#pace(request))
    if (refused) return { ok: false, unreachable: true, problem: `not sent: ${refused}` }
    const left = this.left()
    if (left <= 0) {
      this.#stopped = `the run's time budget (${this.#options.timeoutMs} ms) ran out; give more with --timeout`
      return { ok: false, unreachable: true, problem: `not sent: ${this.#stopped}` }
    }
    const seen = await probe(this.transport, request, Math.min(left, REQUEST_TIMEOUT_MS))
    this.sent++
    this.#last = this.#now()
    if (!seen.ok) {
      if (seen.unreachable)
        this.#stopped = `an earlier request had no answer (${seen.problem})`
      return seen
    }
    this.answers.push({ request, answer: seen })
    if (request.auth.kind === 'key') this.#learn(seen.headers)
    if (seen.status === 429 && !unpaced) await this.#backOff(seen.headers)
    return seen
  }

  /**
   * A 429 outside the rate-limit checks: wait as Retry-After asks, within the budget; a
   * second one stops the run, never risking a ban.
   */
  async #backOff(headers: Headers) {
    this.#tooMany++
    const retryAfter = headers.get('retry-after')
    const seconds =
      retryAfter !== null && /^\d+$/.test(retryAfter.trim()) ? Number(retryAfter) : 60
    if (this.#tooMany >= 2) {
      this.#stopped =
        'a second 429: the check stops rather than risk a ban of the key. Run it again once the window has reset'
    } else if (!(await this.wait(seconds * 1000 + 250))) {
      this.#stopped = `a 429 asked to wait ${seconds} s (Retry-After), more than the run's time budget has left. Run it again once the window has reset`
    }
  }

  #learn(headers: Headers) {
    const rate = rateLimitOf(headers)
    if (!rate) return
    const previous = this.rate
    this.rate = rate
    const newWindow =
      !previous || rate.reset !== previous.reset || rate.remaining > previous.remaining
    if (newWindow) {
      this.#windowBudget = Math.floor(rate.remaining / 2)
      this.#spentInWindow = 0
    }
    this.#spentInWindow++
  }

  /** Waits for the request's turn; a reason when it cannot be sent within the budget. */
  async #pace(request: ProbeRequest): Promise<string | undefined> {
    const { pace } = this.#options
    if (pace !== undefined) {
      const due = this.#last === 0 ? 0 : this.#last + pace - this.#now()
      if (!(await this.wait(due)))
        return `the run's time budget (${this.#options.timeoutMs} ms) leaves no room for --pace ${pace}; give more with --timeout`
    }
    if (request.auth.kind !== 'key' || !this.rate) return undefined
    const halfSpent =
      pace === undefined &&
      this.#windowBudget !== undefined &&
      this.#spentInWindow >= Math.max(1, this.#windowBudget)
    if (!halfSpent && this.rate.remaining > FLOOR) return undefined
    // Wait for the window to reset, as the server says when.
    const resetIn = this.rate.reset * 1000 - this.#now() + 250
    if (!(await this.wait(resetIn))) {
      this.#stopped = `X-RateLimit-Remaining is ${this.rate.remaining} of ${this.rate.limit} and the check spends at most half of a window and never goes below ${FLOOR}; the window resets at ${new Date(this.rate.reset * 1000).toISOString()}, after the run's time budget. Run it again then, or with a larger --timeout`
      return this.#stopped
    }
    this.#windowBudget = undefined
    this.rate = undefined
    return undefined
  }
}
