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
  const response = await fetch(`${origin}${path}`, { method, headers, body })
  return { response, text: await response.text() }
}
