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
   * No answer at all: the scenario's `faults` dropped the request (docs/faults.md). A
   * transport gives the client a network error (msw: `Response.error()`) or closes the
   * socket without writing; status, headers and text are not sent.
   */
  dropped?: true
}

const JSON_HEADERS: HeaderMap = { 'content-type': 'application/json' }

/** A JSON reply with the given headers (rate-limit headers among them). */
export function jsonReply(status: number, body: unknown, headers: HeaderMap = {}): Reply {
  return { status, headers: { ...JSON_HEADERS, ...headers }, text: JSON.stringify(body) }
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
