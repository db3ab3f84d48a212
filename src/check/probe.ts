// One request of the check, and what a client saw of it: an answer (status, headers,
// the body as JSON when it is JSON) or a transport problem said in one line. Nothing here
// throws: a timeout, a DNS, TLS or connection error, a redirect or an HTML page is a
// value the checks turn into failure lines.

/** How a request authenticates: the key under check, none, or a literal header value. */
export type Auth = { kind: 'key' } | { kind: 'none' } | { kind: 'header'; value: string }

export interface ProbeRequest {
  method: 'GET' | 'POST'
  /** The path under the base URL, e.g. `/pets?limit=1`. */
  path: string
  auth: Auth
  body?: unknown
}

/** An answer: `json` is the parsed body when the answer is JSON, else undefined. */
export interface Answer {
  ok: true
  status: number
  headers: Headers
  contentType: string
  json: unknown
  /** The body's start, for a line about a body that is not JSON. */
  text: string
}

/** No answer a client can use: `problem` says what happened, in one line. */
export interface NoAnswer {
  ok: false
  problem: string
  /** The request never reached an answer (timeout, DNS, TLS, connection): no point going on. */
  unreachable: boolean
}

export type Seen = Answer | NoAnswer

export interface Transport {
  fetch: typeof fetch
  baseUrl: string
  key: string
}

/** The full URL of `path` under the base URL (which ends in `/v1`, no trailing slash). */
export const urlOf = (baseUrl: string, path: string) =>
  `${baseUrl.replace(/\/+$/, '')}${path}`

/** Sends one request and reads what came back, within `timeoutMs`. */
export async function probe(
  transport: Transport,
  request: ProbeRequest,
  timeoutMs: number,
): Promise<Seen> {
  const headers: Record<string, string> = { accept: 'application/json' }
  if (request.auth.kind === 'key') headers.authorization = `Bearer ${transport.key}`
  if (request.auth.kind === 'header') headers.authorization = request.auth.value
  if (request.body !== undefined) headers['content-type'] = 'application/json'
  const url = urlOf(transport.baseUrl, request.path)
  const signal = AbortSignal.timeout(Math.max(1, timeoutMs))
  try {
    const response = await transport.fetch(url, {
      method: request.method,
      headers,
      redirect: 'manual',
      signal,
      ...(request.body === undefined ? {} : { body: JSON.stringify(request.body) }),
    })
    const text = await readText(response, signal)
    if (response.status >= 300 && response.status < 400) {
      const location = response.headers.get('location')
      return {
        ok: false,
        unreachable: false,
        problem: `a redirect (${response.status}${location ? ` to ${location}` : ''}) where JSON was expected: use the address it names as the base URL (ending in /v1)`,
      }
    }
    const contentType = response.headers.get('content-type') ?? ''
    return {
      ok: true,
      status: response.status,
      headers: response.headers,
      contentType,
      json: parseJson(contentType, text),
      text: text.slice(0, 200),
    }
  } catch (error) {
    return { ok: false, unreachable: true, problem: describeError(error, timeoutMs) }
  }
}

/** The body as text, at most 1 MB of it (a check never needs more). */
async function readText(response: Response, signal: AbortSignal): Promise<string> {
  if (!response.body) return ''
  const reader = response.body.getReader()
  const decoder = new TextDecoder()
  let text = ''
  let bytes = 0
  for (;;) {
    if (signal.aborted) throw signal.reason
    const { done, value } = await reader.read()
    if (done) break
    bytes += value.byteLength
    text += decoder.decode(value, { stream: true })
    if (bytes > 1_000_000) {
      await reader.cancel().catch(() => {})
      break
    }
  }
  return text
}

function parseJson(contentType: string, text: string): unknown {
  if (!/^application\/([\w.+-]+\+)?json\b/i.test(contentType.trim())) return undefined
  try {
    return JSON.parse(text)
  } catch {
    return undefined
  }
}

/** A transport error in one line: what kind, and what to look at. */
export function describeError(error: unknown, timeoutMs: number): string {
  const err = error as { name?: string; message?: string; cause?: unknown }
  if (err?.name === 'TimeoutError' || err?.name === 'AbortError')
    return `no answer within ${timeoutMs} ms (timeout): is the server up, and is the base URL right?`
  const cause = (err?.cause ?? {}) as { code?: string; message?: string }
  const code = cause.code ?? ''
  if (code === 'ENOTFOUND' || code === 'EAI_AGAIN')
    return `DNS error (${code}): the host name of the base URL does not resolve`
  if (code === 'ECONNREFUSED')
    return 'connection refused (ECONNREFUSED): nothing listens at that address and port'
  if (code === 'ECONNRESET' || code === 'UND_ERR_SOCKET')
    return `the connection was closed before an answer (${code})`
  if (/CERT|TLS|SSL/i.test(code) || /certificate|tls|ssl/i.test(cause.message ?? ''))
    return `TLS error (${code || 'handshake'}): ${cause.message ?? 'the certificate was refused'}`
  const detail = cause.message ?? err?.message ?? String(error)
  return `the request failed (${code || err?.name || 'error'}): ${detail}`
}

/** A curl that repeats the request, reading the key from $PETSTORE_SANDBOX_CHECK_KEY. */
export function curlOf(baseUrl: string, request: ProbeRequest): string {
  const quote = (text: string) => `'${text.replaceAll("'", `'\\''`)}'`
  const parts = ['curl -i']
  if (request.method !== 'GET') parts.push(`-X ${request.method}`)
  if (request.auth.kind === 'key')
    parts.push('-H "Authorization: Bearer $PETSTORE_SANDBOX_CHECK_KEY"')
  if (request.auth.kind === 'header')
    parts.push(`-H ${quote(`Authorization: ${request.auth.value}`)}`)
  if (request.body !== undefined)
    parts.push(
      "-H 'Content-Type: application/json'",
      `--data ${quote(JSON.stringify(request.body))}`,
    )
  parts.push(quote(urlOf(baseUrl, request.path)))
  return parts.join(' ')
}
