import type { IncomingMessage } from 'node:http'
import type { TLSSocket } from 'node:tls'

/**
 * The URL of a Node request as the sandbox routes on it: the scheme of its socket, its
 * Host (checked by the caller with the core's `checkHost`; `localhost` stands in for one
 * that is missing or refused) and `target`, the path and query as the adapter sees them
 * (below its mount point, so `/mock/v1/pets` answers as `/v1/pets`).
 */
export function requestUrl(incoming: IncomingMessage, host: string, target: string): URL {
  const protocol = (incoming.socket as TLSSocket).encrypted ? 'https' : 'http'
  return new URL(`${protocol}://${host}${target}`)
}

/**
 * Turns a Node request into the Fetch `Request` msw's handlers take. The adapter reads
 * the body itself and hands it to the sandbox beside the request; `body` puts it in the
 * request too, for handlers of the user's that may read it.
 */
export function toFetchRequest(
  incoming: IncomingMessage,
  url: URL,
  body?: Uint8Array,
): Request {
  const headers = new Headers()
  const raw = incoming.rawHeaders
  for (let index = 0; index < raw.length; index += 2) {
    const name = raw[index] as string
    // HTTP/2 pseudo-headers (":path") are not headers to the Fetch API.
    if (name.charCodeAt(0) !== 58) headers.append(name, raw[index + 1] as string)
  }
  const method = incoming.method ?? 'GET'
  const init: RequestInit = { method, headers }
  if (body !== undefined && method !== 'GET' && method !== 'HEAD')
    init.body = body as Uint8Array<ArrayBuffer>
  return new Request(url, init)
}

/**
 * The path and query of a request target, as sent. Proxies send the absolute form
 * (`GET http://host/v1/pets HTTP/1.1`), which HTTP/1.1 servers must accept too; its
 * scheme and authority are cut off as text, not through a URL parser, which would
 * resolve dot segments before the sandbox could refuse them.
 */
export function originForm(target: string): string {
  if (target.charCodeAt(0) === 47) return target
  const absolute = /^[A-Za-z][A-Za-z0-9+.-]*:\/\/[^/?#]*/.exec(target)
  if (!absolute) return target
  const rest = target.slice(absolute[0].length)
  return rest.startsWith('/') ? rest : `/${rest}`
}
