import { failed, type CheckResult } from './judge.js'
import type { Seen } from './probe.js'
import { FIRST_REQUEST } from './read-checks.js'
import type { Runner } from './runner.js'

// The one mistake that would fail every check for the same reason: a base URL without
// the API's `/v1` (the server's root, say). Found before the checks run, it is one
// failure line that says which URL to give, not a page of 404s.

/** Whether an answer looks like the API's (JSON, and not a 404). */
const apiLike = (seen: Seen) => seen.ok && seen.status !== 404 && seen.json !== undefined

/**
 * For a base URL that does not end in `/v1`, sends the run's first request
 * ({@link FIRST_REQUEST}, `{base}/pets`) early: when it answers 404 and `{base}/v1/pets`
 * answers as the API does, `wrong` says so (the run then stops there); else `first` is
 * the answer, which the list checks take as theirs (no extra request). A base URL that
 * ends in `/v1` is taken as it is.
 */
export async function probeBaseUrl(
  run: Runner,
  baseUrl: string,
): Promise<{ wrong?: CheckResult; first?: Seen }> {
  if (/\/v1\/*$/.test(new URL(baseUrl).pathname)) return {}
  const first = await run.send(FIRST_REQUEST)
  if (!first.ok || first.status !== 404) return { first }
  const below = await run.send({ ...FIRST_REQUEST, path: `/v1${FIRST_REQUEST.path}` })
  if (!below.ok || !apiLike(below)) return { first }
  const base = baseUrl.replace(/\/+$/, '')
  const wrong = failed(
    "the base URL is the API's (it ends in /v1)",
    'document',
    `the API at ${base}`,
    `${base}/pets answers 404 and ${base}/v1/pets answers ${below.status}: the API is at ${base}/v1. Run the check with that base URL, e.g. petstore-sandbox check ${base}/v1`,
  )
  return { wrong }
}
