// The runs of retries the report card judges (docs/report-card.md#backing-off): which
// request is a retry, whether its wait was asked for by a Retry-After, and whether waits
// nobody asked for grow. Kept per rate-limit window (`limitWindow`: key, or key and the
// scenario a header picked), as the Retry-After check is, so a run never reaches across
// keys or scenario windows. A retry is the same request (method and target) sent again
// after the failure was answered: requests already in flight then (a Promise.all) are no
// reaction to it, and another request ends the run.

/** What a retry follows: the failure its previous request in the window met. */
export type FailureKind = '429' | '5xx' | 'drop'

/** A retry from the third in a row whose wait is shorter than this times the one before is flat. */
export const BACKOFF_GROWTH = 1.25
/**
 * A wait at least this long is never flat: a client that waits that long between tries
 * does not hammer the service (a dashboard polling every 5 s keeps its pace through drops).
 */
export const PATIENT_WAIT_MS = 5000
/** The unasked retry of a run from which flat waits are a finding. */
export const BACKOFF_RETRIES = 3
/**
 * How much earlier than `Retry-After` seconds a retry may come and still honour it:
 * Retry-After is rounded up to whole seconds, the window it names may end sooner.
 */
export const RETRY_AFTER_SLACK_MS = 1000
/** The most runs a card follows at once (keys × scenario windows); the oldest is let go. */
const RUNS_KEPT = 64
/** The waits a run keeps for its message. */
const GAPS_KEPT = 5

/** One run of retries in a window. */
interface Run {
  /** Sandbox time the window's previous request (the failure) was sent. */
  lastAt: number
  /** Sandbox time it was answered (sent plus its duration): waits count from here. */
  end: number
  /** The last request id that had arrived when it was answered: later ids came after. */
  issued: number
  /** Its method and target: a retry sends the same. */
  request: string
  /** What that request met. */
  kind: FailureKind
  /** Its Retry-After in seconds, or 0 when it named none. */
  retryAfter: number
  /** Unasked retries in a row. */
  retries: number
  /** The wait before the previous unasked retry. */
  lastGap: number
  /** The latest unasked waits, oldest first (for the message). */
  gaps: number[]
}

/** A request as the runs read it. */
export interface RetryStep {
  /** Its request id (ids grow in the order requests arrive). */
  id: number
  /** Sandbox time it was sent, in epoch ms. */
  at: number
  /** How long it took to answer, in ms. */
  durationMs: number
  /** Its method and target ("GET /v1/pets?limit=1"). */
  request: string
  /** The last request id that had arrived by the time it was answered. */
  issued: number
  /** The failure the request met, or undefined for an answer that invites no retry. */
  failure: FailureKind | undefined
  /** Retry-After (seconds) its answer named. */
  retryAfter: number | undefined
}

/** The failure a journalled request met, as a retry would follow it. */
export function failureOf(entry: {
  status: number
  dropped?: true
}): FailureKind | undefined {
  if (entry.dropped) return 'drop'
  const { status } = entry
  if (status === 429) return '429'
  // 501 (a path not modelled) is no passing failure: retrying it changes nothing.
  if (status >= 500 && status !== 501) return '5xx'
  return undefined
}

/** The runs of one report card. Made at the card's first failure. */
export class RetryRuns {
  readonly #runs = new Map<string, Run>()

  /**
   * How early a request came that the rate limiter marked as sent while a 429 still
   * asked to wait: "31.0 s after a 429 whose Retry-After asked for 32 s (1.0 s early)".
   */
  early(window: string, step: Pick<RetryStep, 'id' | 'at'>): string | undefined {
    const run = this.#runs.get(window)
    if (!run || run.kind !== '429' || run.retryAfter === 0 || step.id <= run.issued) {
      return undefined
    }
    const waited = Math.max(0, step.at - run.end)
    const early = run.retryAfter * 1000 - waited
    return `The latest was sent ${seconds(waited)} after a 429 whose Retry-After asked for ${run.retryAfter} s${early > 0 ? ` (${seconds(early)} early)` : ''}.`
  }

  /** Whether `id` was in flight when the window's latest failure was answered. */
  inFlight(window: string, id: number): boolean {
    const run = this.#runs.get(window)
    return run !== undefined && id <= run.issued
  }

  /**
   * Follows a request of `window`: when it is a retry whose wait nobody asked for and did
   * not grow, the words of the run for `no_exponential_backoff`; otherwise undefined.
   */
  step(window: string, step: RetryStep): string | undefined {
    const runs = this.#runs
    let run = runs.get(window)
    // Sent before the failure was answered: no reaction to it, whatever it met.
    if (run && step.id <= run.issued) return undefined
    // Another request, or a clock set back: not a retry of this run.
    if (run && (step.request !== run.request || step.at < run.lastAt)) {
      runs.delete(window)
      run = undefined
    }
    let flat: string | undefined
    if (run) {
      // From the answer: a client's wait starts when it has the failure. Under fake
      // timers the sandbox clock stands while real time runs: never below 0.
      const gap = Math.max(0, step.at - run.end)
      if (
        run.retryAfter > 0 &&
        gap > 0 &&
        gap >= run.retryAfter * 1000 - RETRY_AFTER_SLACK_MS
      ) {
        // The wait was asked for: it honours the API, whatever the waits before it.
        run.retries = 0
        run.lastGap = 0
        run.gaps.length = 0
      } else {
        run.retries++
        if (
          run.retries >= BACKOFF_RETRIES &&
          gap < PATIENT_WAIT_MS &&
          !grew(gap, run.lastGap)
        ) {
          flat = describeRun(run, gap)
        }
        run.lastGap = gap
        if (run.gaps.length >= GAPS_KEPT) run.gaps.shift()
        run.gaps.push(gap)
      }
    }
    if (step.failure === undefined) {
      if (run) runs.delete(window)
      return flat
    }
    const failed = {
      lastAt: step.at,
      end: step.at + step.durationMs,
      issued: step.issued,
      request: step.request,
      kind: step.failure,
      retryAfter: step.retryAfter ?? 0,
    }
    if (run) {
      Object.assign(run, failed)
      // The latest failure ends the map's order: the oldest run is the first let go.
      runs.delete(window)
      runs.set(window, run)
    } else {
      if (runs.size >= RUNS_KEPT) runs.delete(runs.keys().next().value as string)
      runs.set(window, { ...failed, retries: 0, lastGap: 0, gaps: [] })
    }
    return flat
  }

  /** Whether a run is followed in `window`. */
  has(window: string): boolean {
    return this.#runs.has(window)
  }

  /** Lets every run go: the clock froze, so no wait can be measured across it. */
  clear(): void {
    this.#runs.clear()
  }
}

/** A wait grew when it is at least BACKOFF_GROWTH times the one before (and not zero). */
function grew(gap: number, before: number): boolean {
  return gap > before && gap >= before * BACKOFF_GROWTH
}

const AFTER: Record<FailureKind, string> = {
  '429': '429s sent before their Retry-After',
  '5xx': '5xx answers that named no Retry-After',
  drop: 'dropped connections',
}

function describeRun(run: Run, gap: number): string {
  const gaps = [...run.gaps, gap].map(seconds).join(', ')
  return `The latest run: ${run.retries} retries in a row after ${AFTER[run.kind]}, waiting ${gaps}; the last wait was not ${BACKOFF_GROWTH}x the one before.`
}

/** Milliseconds as seconds with one decimal: "30.0 s". */
export function seconds(ms: number): string {
  return `${(ms / 1000).toFixed(1)} s`
}
