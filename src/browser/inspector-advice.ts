import type { JournalEntry } from '../core/coach/journal.js'

/**
 * What to do about a journalled request, in one or two sentences: the inspector shows it
 * under the error's message. The message says what went wrong; this says what a client
 * should change, the way the CLI's log warns about the deprecated endpoint and ignored
 * Retry-After.
 */
export function adviseOn(entry: JournalEntry): string[] {
  const advice: string[] = []
  if (entry.deprecated && entry.status < 400) {
    advice.push(
      'Deprecated call: GET /v1/pets/{petId} is removed on 5 December 2030 (see its Sunset and Link headers). Use GET /v1/pets with the status filter.',
    )
  }
  if (entry.ignoredRetryAfter && entry.code !== 'api_key_temporarily_banned') {
    advice.push(
      'Ignored Retry-After: this request came while an earlier 429 asked the client to wait. Wait the Retry-After seconds before retrying; requests sent anyway lead to a temporary ban of the key.',
    )
  }
  if (entry.dropped) advice.push(DROPPED_ADVICE)
  // Own names only: a scenario may force any snake_case code, "constructor" included.
  const byCode =
    entry.code && Object.hasOwn(CODE_ADVICE, entry.code)
      ? CODE_ADVICE[entry.code]
      : undefined
  if (byCode) advice.push(typeof byCode === 'function' ? byCode(entry) : byCode)
  return advice
}

const DROPPED_ADVICE =
  "Dropped: the connection closed with no answer (the scenario's faults), which your client sees as a network error. Retry after a short wait, doubling it each time up to a cap; a GET is safe to retry, but a POST a real server dropped may have been applied, so check with GET /v1/pets before sending it again."

const CODE_ADVICE: Record<string, string | ((entry: JournalEntry) => string)> = {
  missing_api_key:
    'Missing key: send Authorization: Bearer <key>, for example Bearer sandbox-free-key.',
  malformed_authorization:
    'The Authorization header must be exactly "Bearer <key>" (one space, no quotes).',
  invalid_api_key:
    'Unknown key: use a demo key (sandbox-free-key, sandbox-pro-key, ...) or one from your fixtures.',
  expired_api_key: (entry) =>
    entry.scenario === 'expired-key'
      ? 'The expired-key scenario treats every key as expired: this is what your client shows a user whose key lapsed. Switch the scenario back to default to go on.'
      : 'This key has expired: show the user how to get a new key, and use another demo key to go on.',
  rate_limit_exceeded: (entry) =>
    `Rate limited: wait ${entry.rateLimit?.retryAfter ?? 'the Retry-After'} s before the next request, then back off exponentially after every 429. Watch X-RateLimit-Remaining to slow down before the limit.`,
  api_key_temporarily_banned: (entry) =>
    `Ban: the key kept sending while a 429 asked it to wait. Send nothing for ${entry.rateLimit?.retryAfter ?? 'the Retry-After'} s, then honour Retry-After and back off after every 429.`,
  validation_failed:
    'Validation: fix the field and rule the message names (the schemas are on /docs/); the request was not applied.',
  invalid_json:
    'The body is not JSON: send a JSON object with Content-Type: application/json.',
  unsupported_media_type: 'Send the body as JSON with Content-Type: application/json.',
  payload_too_large: 'Send a smaller body: the server reads at most 64 KiB.',
  not_found: (entry) =>
    entry.operation === 'getPet'
      ? entry.scenario === 'missing-pet'
        ? 'The missing-pet scenario answers 404 for every id: this is how your client shows a pet that is gone.'
        : 'No pet with this id: list the ids with GET /v1/pets.'
      : 'No endpoint here: check the path (the API is GET and POST /v1/pets, GET /v1/pets/{petId}).',
  method_not_allowed: 'Use one of the methods the Allow header lists.',
  endpoint_removed:
    'The deprecated endpoint is gone (the sandbox clock is past its sunset): use GET /v1/pets with the status filter.',
  unknown_scenario:
    'X-Sandbox-Scenario names no loaded scenario: use one that GET /__sandbox lists, or leave the header out.',
  invalid_session:
    'A session id is 1 to 64 letters, digits, "-" or "_" (X-Sandbox-Session, or the part after the key\'s dot).',
  session_conflict:
    'The X-Sandbox-Session header and the session key name different sessions: send one of them.',
  invalid_path:
    'Send a path (not "*", not a URL of another host) without dot segments, encoded slashes, dots or backslashes, and with every "%" starting an escape such as %20.',
  not_implemented:
    'The API mentions this endpoint without publishing its shape, so the sandbox does not model it.',
  storage_full: 'The sandbox holds as many pets as it may: POST /__sandbox/reset.',
  storage_failed:
    'The server could not write the pet to its --persist file (disk full or an I/O error): free space, then retry.',
}
