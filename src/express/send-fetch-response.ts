import type { ServerResponse } from 'node:http'

/**
 * Writes a Fetch `Response` to a Node response in one `writeHead` and one `end`, with a
 * Content-Length so small JSON bodies are not chunked. Headers set earlier (CORS) are
 * kept; the response's own win.
 */
export async function sendFetchResponse(response: Response, outgoing: ServerResponse) {
  const headers: Record<string, string | string[]> = {}
  response.headers.forEach((value, name) => {
    headers[name] = value
  })
  const cookies = response.headers.getSetCookie()
  if (cookies.length > 0) headers['set-cookie'] = cookies
  const body =
    response.body === null ? undefined : Buffer.from(await response.arrayBuffer())
  if (body !== undefined) headers['content-length'] = String(body.length)
  outgoing.writeHead(response.status, headers)
  outgoing.end(body)
}
