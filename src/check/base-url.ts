import { failed, type CheckResult } from './judge.js'
import type { ProbeRequest, Seen } from './probe.js'
import type { Runner } from './runner.js'

// The one mistake that would fail every check for the same reason: a base URL without
// the API's `/v1` (the server's root, say). Found before the checks run, it is one
// failure line that says which URL to give, not a page of 404s.

const listAt = (path: string): ProbeRequest => ({
  method: 'GET',
  path,
  auth: { kind: 'key' },
})

/** Whether an answer looks like the API's (JSON, and not a 404). */
const apiLike = (seen: Seen) => seen.ok && seen.status !== 404 && seen.json !== undefined

/**
 * When the base URL does not end in `/v1` and `{base}/pets` answers 404 while
 * `{base}/v1/pets` answers as the API does, the result that says so (the run then stops);
 * else undefined, and the checks run as given. Costs two requests, only for a base URL
 * that does not end in `/v1`; one for a base URL that answers `/pets`.
 */
export async function wrongBaseUrl(
  run: Runner,
  baseUrl: string,
): Promise<CheckResult | undefined> {
  if (/\/v1\/*$/.test(new URL(baseUrl).pathname)) return undefined
  const here = await run.send(listAt('/pets'))
  if (!here.ok || here.status !== 404) return undefined
  const below = await run.send(listAt('/v1/pets'))
  if (!apiLike(below)) return undefined
  const base = baseUrl.replace(/\/+$/, '')
  return failed(
    "the base URL is the API's (it ends in /v1)",
    'document',
    `the API at ${base}`,
    `${base}/pets answers 404 and ${base}/v1/pets answers ${below.ok ? below.status : '?'}: the API is at ${base}/v1. Run the check with that base URL, e.g. petstore-sandbox check ${base}/v1`,
  )
}
