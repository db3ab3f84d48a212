import { afterEach, beforeAll, beforeEach } from 'vitest'

/** What a contract suite sends with a request. */
export interface SendOptions {
  /** The API key of `Authorization: Bearer <key>`: the free plan's by default, null for none. */
  key?: string | null
  /** `X-Sandbox-Session`. */
  session?: string
  /** A JSON body, sent with `Content-Type: application/json` (unless `headers` has one). */
  json?: unknown
  /** A body as it is. */
  body?: string
  headers?: Record<string, string>
}

/** Sends a request to a sandbox over `fetch`; the suites check the answer their own way. */
export async function send(
  origin: string,
  method: string,
  path: string,
  options: SendOptions = {},
): Promise<{ response: Response; text: string }> {
  const headers: Record<string, string> = { ...options.headers }
  const key = options.key === undefined ? 'sandbox-free-key' : options.key
  if (key !== null) headers.authorization = `Bearer ${key}`
  if (options.session !== undefined) headers['x-sandbox-session'] = options.session
  let body = options.body
  if (options.json !== undefined) {
    body = JSON.stringify(options.json)
    headers['content-type'] ??= 'application/json'
  }
  const response = await fetch(`${origin}${path}`, {
    method,
    headers,
    body,
    signal: testSignal(),
  })
  return { response, text: await response.text() }
}

/** The signal of the running test's requests; see {@link endRequestsWithEachTest}. */
let running = new AbortController()

/**
 * The signal every request of a suite carries: aborted when the test that sent it ends.
 * A test that timed out goes on running in the background; its request in flight then
 * fails with an AbortError, and so does its loop, instead of sending on into the next
 * test's world (a 1,000-request quota test that overran its timeout once banned the key
 * of the five tests after it).
 */
export function testSignal(): AbortSignal {
  return running.signal
}

/**
 * Call at the top of a suite's describe: each test (and the suite's beforeAll) gets a
 * fresh {@link testSignal}, aborted when the test ends however it ended (passed, failed,
 * timed out); then `idle` is awaited, for a runtime that answers a request after its
 * client gave up on it (the browser relay), so the next test starts in a quiet world.
 */
export function endRequestsWithEachTest(idle?: () => Promise<void> | undefined) {
  const fresh = () => {
    running = new AbortController()
  }
  beforeAll(fresh)
  beforeEach(fresh)
  afterEach(async () => {
    running.abort(
      new Error('The test ended: its requests end with it (test/contract/send.ts).'),
    )
    await idle?.()
  })
}
