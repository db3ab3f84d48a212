/** Headers of a reply, by lower-case name. */
export type HeaderMap = Record<string, string>

/** The id of an answer of `/v1` or `/__sandbox` (one counter for the sandbox); a `/v1` answer's is its journal entry's. */
export const REQUEST_ID_HEADER = 'x-sandbox-request-id'

/**
 * What the core answers before a transport writes it: status, headers and the JSON
 * body as text.
 */
export interface Reply {
  status: number
  headers: HeaderMap
  /** The JSON body as text. */
  text: string
  /**
   * The same text in pieces, when it was built in slices (an export, a HAR): a server
   * writes it piece by piece, as the client takes it, not in one write of megabytes.
   */
  pieces?: readonly string[]
  /**
   * No answer at all: the scenario's `faults` dropped the request (docs/faults.md). A
   * transport gives the client a network error (msw: `Response.error()`) or closes the
   * socket without writing; status, headers and text are not sent.
   */
  dropped?: true
}

/**
 * A JSON reply with the given headers (rate-limit headers among them), copied into a
 * header map of its own. Object.assign, not a spread: V8 makes `{ ...a, ...b }` some
 * twenty times slower, and every answer has one (npm run bench).
 */
export function jsonReply(status: number, body: unknown, ...headers: HeaderMap[]): Reply {
  const all: HeaderMap = Object.assign({ 'content-type': 'application/json' }, ...headers)
  if (body instanceof JsonText) {
    return {
      status,
      headers: all,
      pieces: body.pieces,
      get text() {
        return body.text
      },
    }
  }
  return { status, headers: all, text: jsonText(body) }
}

/**
 * A body whose JSON text is built already (in slices: an export, a HAR), sent as it is:
 * in pieces, joined only where one text is needed (a Fetch Response in tests).
 */
export class JsonText {
  #text: string | undefined
  constructor(readonly pieces: readonly string[]) {}

  get text(): string {
    return (this.#text ??= this.pieces.join(''))
  }
}

/**
 * The JSON text of records that never change, by record: @msw/data freezes its records
 * and replaces one on update, so a pet's text is written once and a list joins the
 * texts of its pets (a fifth of the cost of `JSON.stringify` for 20 pets).
 */
const recordTexts = new WeakMap<object, string>()

/** `JSON.stringify(body)`, reusing the text of frozen plain records and of lists of them. */
export function jsonText(body: unknown): string {
  if (body instanceof JsonText) return body.text
  if (!Array.isArray(body)) return cachedText(body) ?? JSON.stringify(body)
  let text = '['
  for (let index = 0; index < body.length; index++) {
    const item = cachedText(body[index])
    if (item === undefined) return JSON.stringify(body)
    text += index === 0 ? item : `,${item}`
  }
  return `${text}]`
}

/** The text of a record, written on first use; undefined for anything else. */
function cachedText(value: unknown): string | undefined {
  if (typeof value !== 'object' || value === null) return undefined
  let text = recordTexts.get(value)
  if (text === undefined && isRecord(value)) {
    text = JSON.stringify(value)
    recordTexts.set(value, text)
  }
  return text
}

/** A frozen plain object whose values are primitives (a pet): its text never changes. */
function isRecord(value: object): boolean {
  if (!Object.isFrozen(value) || Object.getPrototypeOf(value) !== Object.prototype)
    return false
  // Values, not getters (a frozen object's getter may answer differently each time).
  for (const descriptor of Object.values(Object.getOwnPropertyDescriptors(value))) {
    if (!('value' in descriptor)) return false
    const field: unknown = descriptor.value
    if (typeof field === 'object' && field !== null) return false
  }
  return true
}

/** The reply to a request the scenario's `faults` dropped: nothing is sent. */
export function droppedReply(): Reply {
  return { status: 0, headers: {}, text: '', dropped: true }
}

/**
 * A reply as a Fetch `Response`, for msw. The answer to a HEAD has the GET's status and
 * headers and no body (RFC 9110): msw hands a Response to the client as it is.
 */
export function toResponse(reply: Reply, request?: Request): Response {
  // msw hands the client a network error for it (its `HttpResponse.error()`).
  if (reply.dropped) return Response.error()
  const body = reply.status === 204 || request?.method === 'HEAD' ? null : reply.text
  return new Response(body, { status: reply.status, headers: reply.headers })
}
