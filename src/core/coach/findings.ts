/** The report card's findings: their codes, most serious first, and their shape. */

/** How serious a finding is: `error` and `warning` are the client's to fix. */
export type Severity = 'error' | 'warning' | 'info'

/** The codes of the report card (docs/report-card.md), most serious first. */
export const FINDING_CODES = [
  'retry_before_retry_after',
  'api_key_banned',
  'endpoint_removed',
  'no_exponential_backoff',
  'blind_retry',
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
