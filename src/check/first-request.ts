import { describeAnswer, failed, type CheckResult } from './judge.js'
import type { Answer, Seen } from './probe.js'
import { FIRST_REQUEST } from './read-checks.js'
import type { Runner } from './runner.js'

// The two mistakes that would fail every check for one reason, found by the run's first
// request before the checks: a base URL without the API's `/v1` (the server's root,
// say), and a key the server refuses. Each is one failure line that says what to give,
// not a page of 404s or 401s.

/** Whether an answer looks like the API's (JSON, and not a 404). */
const apiLike = (seen: Seen): seen is Answer =>
  seen.ok && seen.status !== 404 && seen.json !== undefined

/**
 * Sends the run's first request ({@link FIRST_REQUEST}, `GET {base}/pets` with the key):
 * `wrong` when the run should stop at one line (then nothing else is checked), else
 * `first`, the answer, which the list checks take as theirs (no extra request).
 */
export async function firstRequest(
  run: Runner,
  baseUrl: string,
): Promise<{ wrong?: CheckResult; first: Seen }> {
  const first = await run.send(FIRST_REQUEST)
  if (!first.ok) return { first }
  const base = baseUrl.replace(/\/+$/, '')
  if (first.status === 404 && !/\/v1$/.test(new URL(base).pathname)) {
    const below = await run.send({ ...FIRST_REQUEST, path: `/v1${FIRST_REQUEST.path}` })
    if (apiLike(below))
      return {
        first,
        wrong: failed(
          "the base URL is the API's (it ends in /v1)",
          'document',
          `listPets at ${base}/pets`,
          `${base}/pets answers 404 and ${base}/v1/pets answers ${below.status}: the API is at ${base}/v1. Run the check with that base URL, e.g. petstore-sandbox check ${base}/v1`,
        ),
      }
  }
  if (first.status === 401)
    return {
      first,
      wrong: failed(
        'the key is accepted',
        'document',
        `listPets with the key answers as for a valid key, not 401`,
        `${describeAnswer(first)}. Every other check needs a key this deployment accepts: give one with --key or PETSTORE_SANDBOX_CHECK_KEY (against the sandbox, e.g. sandbox-enterprise-key).`,
        { baseUrl, request: FIRST_REQUEST },
      ),
    }
  return { first }
}
