import { firstRequest } from './first-request.js'
import type { CheckResult } from './judge.js'
import type { Seen } from './probe.js'
import {
  authChecks,
  everyAnswerChecks,
  getChecks,
  listChecks,
  READ_REQUESTS,
  type CheckContext,
} from './read-checks.js'
import { Runner } from './runner.js'
import {
  rateLimitChecks,
  SPEND_AT_MOST,
  WRITE_REQUESTS,
  writeChecks,
} from './spending-checks.js'

export type { CheckResult, Holds } from './judge.js'

/** Options of {@link checkDeployment}. */
export interface CheckDeploymentOptions {
  /** The API's base address, ending in `/v1`, e.g. `https://staging.example.com/v1`. */
  baseUrl: string
  /** The API key the checks send as `Authorization: Bearer <key>`. Never printed. */
  key: string
  /** Also create a pet (named `petstore-sandbox check <time>`) and read it back. Default false. */
  writes?: boolean
  /** Also spend a rate-limit window, only when X-RateLimit-Remaining is at most 20. Default false. */
  rateLimits?: boolean
  /** Milliseconds between requests, instead of pacing by the server's X-RateLimit-* headers. */
  pace?: number
  /** The whole run's time budget in milliseconds. Default 60,000. */
  timeoutMs?: number
  /** The fetch to send with. Default the global fetch. */
  fetch?: typeof fetch
  /** Called with each result as it is known (the CLI prints it). */
  onResult?: (result: CheckResult) => void
  /** Called once the first answer has told the key's rate limit, before the other requests. */
  onPlan?: (plan: CheckPlan) => void
}

/** What the run will send, said before it sends it. */
export interface CheckPlan {
  /** Requests the run will send at most (a spent window adds up to X-RateLimit-Remaining + 2). */
  requests: number
  /** X-RateLimit-Limit, -Remaining and -Reset of the first answer, when it had them. */
  limit?: number
  remaining?: number
  reset?: number
}

/** The results and their summary. */
export interface CheckReport {
  baseUrl: string
  results: CheckResult[]
  summary: {
    passed: number
    failed: number
    skipped: number
    /** Failed checks of the API document: the server breaks the API. */
    brokenDocument: number
    /** Failed checks of a sandbox decision: drift between the server and the sandbox. */
    drift: number
    requests: number
    durationMs: number
  }
  /** True when no check failed. */
  ok: boolean
}

export const DEFAULT_CHECK_TIMEOUT_MS = 60_000

/**
 * Checks a live deployment of the Pet Adoption Service (production, staging, another
 * implementation, or a sandbox) against what a client can see: the API document and the
 * sandbox's decisions where it is silent. Read-only unless `writes`; it never throws for
 * what the server does (a timeout, a redirect or an HTML page is a failed check).
 *
 * @example
 * const report = await checkDeployment({ baseUrl: 'https://staging.example.com/v1', key })
 * report.ok // false when a check failed
 * @see docs/check.md
 */
export async function checkDeployment(
  options: CheckDeploymentOptions,
): Promise<CheckReport> {
  const started = Date.now()
  checkOptions(options)
  const timeoutMs = options.timeoutMs ?? DEFAULT_CHECK_TIMEOUT_MS
  const run = new Runner({
    transport: {
      fetch: options.fetch ?? fetch,
      baseUrl: options.baseUrl,
      key: options.key,
    },
    timeoutMs,
    ...(options.pace === undefined ? {} : { pace: options.pace }),
  })
  const results: CheckResult[] = []
  const context: CheckContext = {
    run,
    baseUrl: options.baseUrl,
    report: (result) => {
      results.push(result)
      options.onResult?.(result)
    },
  }
  const start = await firstRequest(run, options.baseUrl)
  if (start.wrong) context.report(start.wrong)
  else await allChecks(context, options, start.first)
  const count = (status: CheckResult['status']) =>
    results.filter((result) => result.status === status).length
  const failures = results.filter((result) => result.status === 'failed')
  return {
    baseUrl: options.baseUrl,
    results,
    summary: {
      passed: count('passed'),
      failed: failures.length,
      skipped: count('skipped'),
      brokenDocument: failures.filter((result) => result.holds === 'document').length,
      drift: failures.filter((result) => result.holds === 'decision').length,
      requests: run.sent,
      durationMs: Date.now() - started,
    },
    ok: failures.length === 0,
  }
}

/** The checks, in order: list, get, the 401 kinds, writes, every answer's headers, rate limits. */
async function allChecks(
  context: CheckContext,
  options: CheckDeploymentOptions,
  /** The answer to the first request (listPets with the key), sent already. */
  first: Seen,
) {
  const { run } = context
  const onPlan = () => {
    const requests =
      READ_REQUESTS +
      (options.writes ? WRITE_REQUESTS : 0) +
      (options.rateLimits ? SPEND_AT_MOST + 3 : 0)
    options.onPlan?.({ requests, ...(run.rate ?? {}) })
  }
  const pets = await listChecks(context, onPlan, first)
  const id = pets.find((pet) => Number.isSafeInteger(pet.id))?.id as number | undefined
  await getChecks(context, id)
  await authChecks(context)
  if (options.writes) await writeChecks(context, new Date())
  everyAnswerChecks(context)
  if (options.rateLimits) await rateLimitChecks(context)
}

/** Refuses options no run can use, saying how to fix them. */
function checkOptions(options: CheckDeploymentOptions) {
  let url: URL | undefined
  try {
    url = new URL(options.baseUrl)
  } catch {
    url = undefined
  }
  if (!url || !/^https?:$/.test(url.protocol))
    throw new TypeError(
      `checkDeployment: baseUrl must be an http(s) URL ending in /v1, e.g. https://staging.example.com/v1; got ${JSON.stringify(String(options.baseUrl))}.`,
    )
  if (
    typeof options.key !== 'string' ||
    options.key.trim() === '' ||
    /\s/.test(options.key)
  )
    throw new TypeError(
      'checkDeployment: key must be the API key to send (one word, no spaces), e.g. from process.env.PETSTORE_SANDBOX_CHECK_KEY.',
    )
  for (const [name, value] of [
    ['pace', options.pace],
    ['timeoutMs', options.timeoutMs],
  ] as const) {
    if (value !== undefined && (!Number.isSafeInteger(value) || value < 0))
      throw new TypeError(
        `checkDeployment: ${name} must be a whole number of milliseconds from 0, got ${String(value)}.`,
      )
  }
}
