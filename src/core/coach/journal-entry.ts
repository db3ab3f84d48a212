/** One journal entry's shape: what the journal keeps of a request and its answer. */

/** The rate-limit state a response reported (its `X-RateLimit-*` and `Retry-After`). */
export interface JournalRateLimit {
  limit: number
  remaining: number
  /** Unix seconds at which the reported window resets. */
  reset: number
  retryAfter?: number
}

/** One request as the journal (`GET /__sandbox/requests`) and the CLI log see it. */
export interface JournalEntry {
  id: number
  /** Sandbox-clock time of the request. */
  at: string
  method: string
  /** Path and query as sent, its first 2 KiB (then `…`). */
  path: string
  /** The HTTP status of the answer; 0 for a dropped request (no answer). */
  status: number
  durationMs: number
  scenario: string
  /** The demo key used, when it is a known key (unknown tokens are never echoed). */
  key?: string
  plan?: string
  operation?: string
  code?: string
  /** The Error body's message, for an error. */
  message?: string
  /** The rate-limit state after this request, as its response's headers said. */
  rateLimit?: JournalRateLimit
  /** The request's `Content-Type` and `X-Sandbox-*` headers (never the control token). */
  headers?: Record<string, string>
  /** The request body as text, its first 4 KiB (dropped first when the journal's budget is full). */
  body?: string
  /** The body was longer than what `body` holds. */
  bodyTruncated?: true
  /** The request used the deprecated getPet endpoint. */
  deprecated?: true
  /** The request came while an earlier 429's Retry-After was still running. */
  ignoredRetryAfter?: true
  /** One of your own msw handlers answered it (option `handlers`), not the sandbox. */
  override?: true
  /**
   * The scenario's `faults` dropped it: the client got no answer at all (a network error,
   * a closed socket), so `status` is 0 and the API never saw it (docs/faults.md).
   */
  dropped?: true
  /** The session it belongs to, when not the default one (`X-Sandbox-Session`, a session key). */
  session?: string
}
