import type { FindingCode, Severity } from './findings.js'
import { PET_STATUSES } from '../common/schemas.js'

// The words of the report card, in the sandbox's teaching voice: the message says what
// the client did and why it matters in production, the fix what to change in the
// client. Made when a report is asked for, from a finding's code and group: the card
// keeps counts, not text.

interface Words {
  message: string
  fix: string
}

const STATUSES = PET_STATUSES.join(', ')

const WORDS: Record<
  Exclude<FindingCode, 'invalid_request' | 'authentication_failed'>,
  Words
> = {
  retry_before_retry_after: {
    message:
      'Requests were sent with a key while a 429 for that key still asked it to wait (Retry-After). In production every one of them is refused again and counts towards a temporary ban of the key, which stops every part of your application that uses it.',
    fix: 'After a 429, send nothing with that key until the seconds of its Retry-After header have passed: waiting exactly that is enough, every time. A retry library that caps its waits must cap them above the longest Retry-After you accept, or give up instead of retrying early.',
  },
  api_key_banned: {
    message:
      'The key was temporarily banned (429 api_key_temporarily_banned) because requests kept coming while a 429 asked it to wait. In production a banned key fails every request of every caller that shares it until the ban ends.',
    fix: 'Honour Retry-After after every 429; while banned, wait out the Retry-After of the ban instead of retrying.',
  },
  endpoint_removed: {
    message:
      'GET /v1/pets/{petId} was called after its sunset (5 December 2030) and answered 410 endpoint_removed. In production this call stops working on that date, and every screen built on it breaks.',
    fix: 'Use GET /v1/pets with the status filter instead of GET /v1/pets/{petId}.',
  },
  no_exponential_backoff: {
    message:
      'A key was retried three or more times in a row, with waits no Retry-After asked for (after dropped connections, 5xx answers, or 429s it did not wait out), and the waits did not grow. Retrying at a steady pace keeps a struggling service or a used-up limit busy for every caller of the key; the API asks clients to back off exponentially.',
    fix: 'After a network error or a 5xx, make every further wait at least 1.25 times the one before (for example 1 s, 2 s, 4 s, with jitter that keeps each wait longer); after a 429, wait its Retry-After.',
  },
  blind_retry: {
    message:
      'A POST /v1/pets was sent again, with the same key and body, after the connection dropped, and nothing was read in between. A dropped connection does not say whether the pet was created: in production the first request may have arrived, and the retry lists the animal twice.',
    fix: 'Before re-sending a create after a network error, look whether it arrived (GET /v1/pets, or GET /v1/pets/{petId}), and re-send only if it did not; or leave POST out of the methods your retry library retries.',
  },
  deprecated_endpoint: {
    message:
      'GET /v1/pets/{petId} was used. It is deprecated (see its Deprecation and Sunset headers) and will be removed on 5 December 2030; from then on these calls fail with 410.',
    fix: `Use GET /v1/pets with the status filter (?status=${PET_STATUSES.join('|')}) instead of GET /v1/pets/{petId}.`,
  },
  rate_limit_exceeded: {
    message:
      'The client received 429 rate_limit_exceeded. Receiving one is not wrong; what matters is what the client does next (see retry_before_retry_after and no_exponential_backoff, when they appear).',
    fix: 'Keep honouring Retry-After. If 429s are frequent in production, spread requests out, cache lists, or use a plan with a higher limit.',
  },
  duplicate_create: {
    message:
      'The same POST /pets body was sent twice with the same key within 10 s, and both created a pet (201). That is a double submit or an unsafe retry: in production the animal is listed twice.',
    fix: 'Disable the submit control while a create is in flight, and retry a POST only when you know the first did not arrive (after a connection error, list first to check).',
  },
  unmodelled_endpoint: {
    message:
      'GET /store/orders was called. The API mentions it but does not publish its shape, so the sandbox answers 501 not_implemented and cannot tell you what production returns.',
    fix: 'Do not build on /store/orders until its shape is published; ask the API owners for its documentation.',
  },
  connection_dropped: {
    message:
      'Requests were dropped by the faults scenario you chose: the connection closed without an answer, as happens in production on a bad network.',
    fix: 'Treat a network error as retryable, with backoff: always for GET, and for POST only after a read shows the first did not arrive (see blind_retry).',
  },
}

/** A retry library that names itself in `User-Agent`, whose settings a fix can name. */
export type ClientLibrary = 'got' | 'axios' | 'undici'

/**
 * The retry library a `User-Agent` names: got ("got (https://github.com/sindresorhus/got)"),
 * axios ("axios/1.7.9"), undici ("undici"). Node's own fetch sends "node", which ky,
 * p-retry and fetch-retry share: no library to name.
 */
export function clientOf(
  userAgent: string | null | undefined,
): ClientLibrary | undefined {
  if (!userAgent) return undefined
  if (/^got\b/.test(userAgent)) return 'got'
  if (/^axios\//.test(userAgent)) return 'axios'
  if (/^undici\b/.test(userAgent)) return 'undici'
  return undefined
}

/** The setting of each library that fixes each finding (docs/report-card.md#retry-recipes). */
const CLIENT_FIXES: Partial<Record<FindingCode, Record<ClientLibrary, string>>> = {
  retry_before_retry_after: {
    got: 'With got: leave retry.calculateDelay to got (its computed value already waits Retry-After), or return at least its retryAfter from yours; retry.maxRetryAfter only makes got give up sooner.',
    axios:
      "With axios-retry: give retryDelay a function that returns at least the 429's Retry-After in milliseconds (error.response.headers['retry-after'] * 1000).",
    undici:
      "With undici's RetryAgent: raise maxTimeout (30 s by default), which caps every wait, Retry-After included, to at least the longest Retry-After you accept.",
  },
  no_exponential_backoff: {
    got: 'With got: keep retry.backoffLimit high enough for waits to grow, and a retry.calculateDelay of yours growing with attemptCount.',
    axios:
      'With axios-retry: retryDelay: axiosRetry.exponentialDelay (the default waits nothing).',
    undici: "With undici's RetryAgent: keep timeoutFactor above 1 (2 by default).",
  },
  blind_retry: {
    got: 'With got: keep POST out of retry.methods (it is out by default).',
    axios:
      'With axios-retry: a retryCondition that refuses POST (the default, isNetworkOrIdempotentRequestError, retries any method after a network error).',
    undici: "With undici's RetryAgent: keep POST out of methods (it is out by default).",
  },
}

/** The setting of `client` that fixes `code`, or undefined. */
export function forClient(code: FindingCode, client: ClientLibrary): string | undefined {
  return CLIENT_FIXES[code]?.[client]
}

/** What each field of a 400 must be, for the fix. */
const FIELD_RULES: Record<string, string> = {
  name: 'a non-empty string of at most 1,000 characters',
  categoryId: 'a positive integer',
  status: `one of ${STATUSES}`,
  limit: 'an integer from 1 to 100 (or left out for the default 20)',
  petId: 'an integer: the id of a pet, as GET /v1/pets returns it',
  body: 'a JSON object (NewPet), e.g. {"name":"Rex","categoryId":1,"status":"available"}',
}

/** The fix of a 400 with no field, by error code. */
const CODE_FIXES: Record<string, string> = {
  invalid_json:
    'Serialise the body with JSON.stringify and send it as UTF-8 with Content-Type: application/json.',
  unknown_scenario:
    'Send X-Sandbox-Scenario only with the name of a loaded scenario (GET /__sandbox lists them).',
  invalid_path:
    'Build paths from the documented templates: no "." or ".." segments, no encoded "/" or "." inside a segment, no malformed %-escapes.',
  invalid_host: 'Send a Host header that is only a host name and a port.',
  invalid_session:
    'Use session ids of 1 to 64 letters, digits, "_" and "-" (X-Sandbox-Session, or the part after the "." of a session key).',
  session_conflict:
    'Name one session per request: the X-Sandbox-Session header and a session key must not name different sessions.',
}

const AUTH_WORDS: Record<string, Words> = {
  missing_api_key: {
    message:
      'Requests were sent without an API key (401 missing_api_key). Every operation of the API requires one; in production each of these requests fails.',
    fix: 'Send "Authorization: Bearer <API_KEY>" with every request, including the first one after start-up and after a retry.',
  },
  malformed_authorization: {
    message:
      'The Authorization header was not "Bearer <API_KEY>" (401 malformed_authorization). In production the key is not even read, and each of these requests fails.',
    fix: 'Send exactly "Authorization: Bearer <API_KEY>": the word Bearer, one space, the key.',
  },
  invalid_api_key: {
    message:
      'Requests used a key the API does not know (401 invalid_api_key). In production a wrong key fails every request, and retrying it only spends your rate limit.',
    fix: 'Check the key the client is configured with (the demo keys: GET /__sandbox), and stop on a 401 instead of retrying it.',
  },
  expired_api_key: {
    message:
      'Requests used an expired key (401 expired_api_key). In production an expired key fails every request until it is replaced.',
    fix: 'Stop on 401 expired_api_key, do not retry it, and tell the user or operator to replace the key.',
  },
}

/** The message and fix of a finding; `group` is what the card told it apart by. */
export function describeFinding(
  code: FindingCode,
  severity: Severity,
  group: string,
): Words {
  if (code === 'invalid_request') return invalidRequest(severity, group)
  if (code === 'authentication_failed') return authenticationFailed(severity, group)
  const words = WORDS[code]
  if (code === 'endpoint_removed' && severity === 'info') return forced(words, '410')
  return words
}

function invalidRequest(severity: Severity, group: string): Words {
  const [errorCode = '', field = ''] = group.split(' ')
  if (severity === 'info') {
    return forced(
      {
        message: `Requests were answered 400 ${errorCode}.`,
        fix: 'Show the failure to the user and do not retry the same request unchanged.',
      },
      '400',
    )
  }
  const what =
    errorCode === 'invalid_json'
      ? 'because the body was not valid JSON'
      : field
        ? `because ${field} broke the API's rules (the 400's message says how)`
        : '(the message of each 400 says what was wrong)'
  const rule = FIELD_RULES[field]
  return {
    message: `Requests were rejected with 400 ${errorCode} ${what}. In production these requests fail the same way: nothing is saved and the user sees an error.`,
    fix:
      CODE_FIXES[errorCode] ??
      (rule
        ? `Check ${field} before sending: it must be ${rule}.`
        : 'Open one of these requests in the journal (GET /__sandbox/requests/<id>): its message names what to change.'),
  }
}

function authenticationFailed(severity: Severity, errorCode: string): Words {
  const words = AUTH_WORDS[errorCode] ?? {
    message: `Requests were answered 401 ${errorCode}.`,
    fix: 'Send a valid key as "Authorization: Bearer <API_KEY>".',
  }
  if (severity !== 'info') return words
  return {
    message: `${words.message} Here it is what you chose to rehearse (sandbox-expired-key, or a scenario such as expired-key or invalid-key), so it is not held against the client.`,
    fix: words.fix,
  }
}

/**
 * The message and fix of a catch-all finding: which failures it holds (those past the
 * `limit` of findings the card tells apart), and the words of its latest (`group`), so it
 * still says what was wrong and what to do.
 */
export function describeOthers(
  code: FindingCode,
  severity: Severity,
  group: string,
  limit: number,
): Words {
  const words = describeFinding(code, severity, group)
  const status = code === 'authentication_failed' ? '401' : '400'
  const kinds =
    code === 'invalid_request' && severity !== 'info'
      ? 'error codes and fields'
      : 'error codes'
  const journal = 'GET /__sandbox/requests/<id>'
  return {
    message: `Past ${limit} findings the card stops telling ${status}s apart: this finding holds the ${kinds} that came after (the latest: ${status} ${group}). ${words.message}`,
    fix: words.fix.includes(journal)
      ? words.fix
      : `${words.fix} The requests here failed in different ways: open them in the journal (${journal}) to see each one's code and message.`,
  }
}

/** The words of a failure a scenario's `errors` forced: the user chose it. */
function forced(words: Words, status: string): Words {
  return {
    message: `${words.message} The ${status} was forced by the scenario you chose (its "errors" field), so it is not held against the client; check that the client shows it well.`,
    fix: words.fix,
  }
}

/**
 * What a 400 is grouped by beyond its code: the fields its message names ("Invalid
 * body: name is required; categoryId must be ..." names name and categoryId), or none.
 * A request counts once in each field's group.
 */
export function fieldsOf(code: string, message: string | undefined): string[] {
  if (code === 'invalid_json') return ['body']
  const match = message && /^Invalid (body|query|path): (.+)$/s.exec(message)
  if (!match) return ['']
  const root = match[1] as string
  const fields = new Set<string>()
  for (const phrase of (match[2] as string).split('; ')) {
    const first = /^[A-Za-z_$][\w$]{0,40}/.exec(phrase)?.[0]
    // "the body must be ...", "a NewPet is required": the whole body or query.
    fields.add(first === undefined || first === 'the' || first === 'a' ? root : first)
    if (fields.size >= 3) break
  }
  return [...fields]
}
