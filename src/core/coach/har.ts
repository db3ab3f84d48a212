import type { JournalEntry } from './journal.js'
import { utf8Length } from '../common/text-bytes.js'
import { entryChars } from './journal-budget.js'
import { REQUEST_ID_HEADER } from '../http/reply.js'
import { joinInSlices, SliceMeter, type Steps } from '../common/slices.js'
import { SANDBOX_VERSION } from '../common/version.js'

// HAR 1.2 (http://www.softwareishard.com/blog/har-12-spec/), the format browser dev
// tools import: the journal as an archive. Only what the journal kept is there: the
// request's Content-Type and X-Sandbox-* headers and its first 4 KiB of body; of the
// response, its status, request id, rate-limit headers and, for an error, the Error body.

/** A HAR name/value pair (headers, query parameters). */
export interface HarPair {
  name: string
  value: string
}

/** One HAR entry; `_sandbox` is the journal entry's own fields (HAR custom fields start with `_`). */
export interface HarEntry {
  startedDateTime: string
  time: number
  request: {
    method: string
    url: string
    httpVersion: string
    cookies: []
    headers: HarPair[]
    queryString: HarPair[]
    postData?: { mimeType: string; text: string }
    headersSize: -1
    bodySize: number
  }
  response: {
    status: number
    statusText: string
    httpVersion: string
    cookies: []
    headers: HarPair[]
    content: { size: number; mimeType: string; text?: string; comment?: string }
    redirectURL: ''
    headersSize: -1
    bodySize: -1
    /** Why there is no answer (a dropped request), as Chrome writes a failed one's. */
    _error?: string
  }
  cache: Record<string, never>
  timings: { send: 0; wait: number; receive: 0 }
  _sandbox: Omit<
    JournalEntry,
    'at' | 'method' | 'path' | 'status' | 'durationMs' | 'body'
  >
}

/** A HAR 1.2 archive. */
export interface Har {
  log: {
    version: '1.2'
    creator: { name: 'petstore-sandbox'; version: string }
    entries: HarEntry[]
    comment?: string
  }
}

/** What {@link journalToHar} needs besides the entries. */
export interface HarOptions {
  /**
   * The origin the requests were sent to (`http://127.0.0.1:4010`): the journal keeps
   * paths, a HAR has URLs. Over HTTP, the export request's own origin.
   */
  origin: string
  /** False when the journal dropped requests or cut bodies: the log's comment says so. */
  complete?: boolean
}

/** The reason phrases of the statuses the sandbox answers (a scenario's others get ''). */
const STATUS_TEXT: Record<number, string> = {
  200: 'OK',
  201: 'Created',
  204: 'No Content',
  400: 'Bad Request',
  401: 'Unauthorized',
  403: 'Forbidden',
  404: 'Not Found',
  405: 'Method Not Allowed',
  408: 'Request Timeout',
  409: 'Conflict',
  410: 'Gone',
  413: 'Content Too Large',
  415: 'Unsupported Media Type',
  417: 'Expectation Failed',
  429: 'Too Many Requests',
  431: 'Request Header Fields Too Large',
  500: 'Internal Server Error',
  501: 'Not Implemented',
  503: 'Service Unavailable',
  507: 'Insufficient Storage',
}

const JSON_TYPE = 'application/json'

/**
 * The journal's entries (oldest first) as a HAR 1.2 archive. URLs are on `origin`; a
 * path the journal cut (2 KiB) or that was not a path (`*`) is still a URL of it.
 *
 * @example
 * const har = journalToHar(journal.recent().reverse(), { origin: 'http://127.0.0.1:4010' })
 */
export function journalToHar(entries: readonly JournalEntry[], options: HarOptions): Har {
  const log: Har['log'] = {
    version: '1.2',
    creator: { name: 'petstore-sandbox', version: SANDBOX_VERSION },
    entries: entries.map((entry) => harEntry(entry, options.origin)),
  }
  if (options.complete === false) {
    log.comment =
      'The journal had dropped older requests or cut bodies (journalSize, maxJournalBytes, 4 KiB per body): these are the requests and bodies it kept.'
  }
  return { log }
}

/**
 * About the bytes of the HAR of a journal, counted before it is built: the journal's
 * own count of its entries' bytes (journal-budget.ts), twice (a HAR spells each field
 * with more around it), and what every entry adds.
 */
export function harBytes(entries: number, journalBytes: number): number {
  return 1024 + 2 * journalBytes + 800 * entries
}

/**
 * The JSON text of {@link journalToHar}'s archive, the same bytes as `JSON.stringify`
 * writes, in pieces (one per slice, joinInSlices), built in steps that yield after each
 * slice of entries.
 */
export function* harTextSteps(
  entries: readonly JournalEntry[],
  options: HarOptions,
): Steps<string[]> {
  const meter = new SliceMeter()
  const { log } = journalToHar([], options)
  const { entries: _none, comment, ...head } = log
  // An entry: 8 units, and one per 64 characters of its path, body and headers (its
  // URL parsed, its query and headers listed: 100 entries of 2 KiB paths and 16
  // headers took 5 ms, a slice's worth).
  const written = yield* joinInSlices(
    entries,
    (entry) => JSON.stringify(harEntry(entry, options.origin)),
    (entry) => 8 + (entryChars(entry) >> 6),
    meter,
  )
  const rest = comment === undefined ? '' : `,"comment":${JSON.stringify(comment)}`
  return [
    `{"log":${JSON.stringify(head).slice(0, -1)},"entries":[`,
    ...written,
    `]${rest}}}`,
  ]
}

function harEntry(entry: JournalEntry, origin: string): HarEntry {
  // What HAR has a place for leaves `_sandbox`; the status is the response's.
  const {
    at,
    method,
    path,
    status: _status,
    durationMs,
    body,
    headers = {},
    ...sandbox
  } = entry
  const url = urlOn(origin, path)
  const request: HarEntry['request'] = {
    method,
    url: url.href,
    httpVersion: 'HTTP/1.1',
    cookies: [],
    headers: pairs(Object.entries(headers)),
    queryString: pairs(url.searchParams),
    headersSize: -1,
    // The body's size is known when the journal kept all of it.
    bodySize: entry.bodyTruncated ? -1 : body === undefined ? 0 : utf8Length(body),
  }
  if (body !== undefined) {
    request.postData = { mimeType: headers['content-type'] ?? '', text: body }
  }
  return {
    startedDateTime: at,
    time: durationMs,
    request,
    response: harResponse(entry),
    cache: {},
    timings: { send: 0, wait: durationMs, receive: 0 },
    _sandbox: { ...sandbox, headers },
  }
}

function harResponse(entry: JournalEntry): HarEntry['response'] {
  if (entry.dropped) {
    // No answer at all: how dev tools write a failed request (status 0), and why.
    return {
      status: 0,
      statusText: '',
      httpVersion: '',
      cookies: [],
      headers: [],
      content: { size: 0, mimeType: '' },
      redirectURL: '',
      headersSize: -1,
      bodySize: -1,
      _error: "Dropped by the scenario's faults: the client got no answer.",
    }
  }
  const headers: HarPair[] = []
  // The Error body, as the sandbox sends it, when the journal knows its code and message.
  const text =
    entry.code !== undefined && entry.message !== undefined
      ? JSON.stringify({ code: entry.code, message: entry.message, status: entry.status })
      : undefined
  // Your own handlers' answers (overrides) are yours: their type is not known.
  const json = !entry.override && entry.status !== 204
  if (json) headers.push({ name: 'content-type', value: JSON_TYPE })
  // An entry's id is its answer's request id, except on your own handlers' answers.
  if (!entry.override) headers.push({ name: REQUEST_ID_HEADER, value: String(entry.id) })
  const limit = entry.rateLimit
  if (limit) {
    headers.push(
      { name: 'x-ratelimit-limit', value: String(limit.limit) },
      { name: 'x-ratelimit-remaining', value: String(limit.remaining) },
      { name: 'x-ratelimit-reset', value: String(limit.reset) },
    )
    if (limit.retryAfter !== undefined) {
      headers.push({ name: 'retry-after', value: String(limit.retryAfter) })
    }
  }
  const content: HarEntry['response']['content'] =
    text === undefined
      ? {
          size: 0,
          mimeType: json ? JSON_TYPE : '',
          comment: 'The journal keeps no response bodies but the Error of an error.',
        }
      : { size: utf8Length(text), mimeType: JSON_TYPE, text }
  return {
    status: entry.status,
    statusText: STATUS_TEXT[entry.status] ?? '',
    httpVersion: 'HTTP/1.1',
    cookies: [],
    headers,
    content,
    redirectURL: '',
    headersSize: -1,
    bodySize: -1,
  }
}

/**
 * The journalled path as a URL of `origin`. Appended, not resolved: a path such as
 * `//other.example/x` stays on the origin, and one that is not a path at all (`*`)
 * becomes `/*`.
 */
function urlOn(origin: string, path: string): URL {
  const base = origin.replace(/\/+$/, '')
  try {
    return new URL(`${base}${path.startsWith('/') ? '' : '/'}${path}`)
  } catch {
    return new URL(`${base}/`)
  }
}

function pairs(from: Iterable<[string, string]>): HarPair[] {
  return Array.from(from, ([name, value]) => ({ name, value }))
}
