import type { IncomingMessage } from 'node:http'
import type { TLSSocket } from 'node:tls'

/**
 * Turns a Node request into the Fetch `Request` msw's handlers take. `path` is the URL
 * as the middleware sees it (below its mount point), so the sandbox can be mounted at
 * `/mock` and still answer `/mock/v1/pets` as `/v1/pets`. The body is not in it: the
 * middleware reads it and attaches it (`attachRequestBody`).
 */
export function toFetchRequest(incoming: IncomingMessage, path: string): Request {
  const protocol = (incoming.socket as TLSSocket).encrypted ? 'https' : 'http'
  const host = incoming.headers.host || 'localhost'
  const headers = new Headers()
  const raw = incoming.rawHeaders
  for (let index = 0; index < raw.length; index += 2) {
    const name = raw[index] as string
    // HTTP/2 pseudo-headers (":path") are not headers to the Fetch API.
    if (name.charCodeAt(0) !== 58) headers.append(name, raw[index + 1] as string)
  }
  const init: RequestInit = { method: incoming.method ?? 'GET', headers }
  try {
    return new Request(`${protocol}://${host}${path}`, init)
  } catch {
    // A Host header that is not a valid authority: the path is what routes anyway.
    return new Request(`${protocol}://localhost${path}`, init)
  }
}
