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
  // Pairs, not a Headers: the Request copies what it is given into its own Headers, and
  // a Headers given is read back sorted (undici) only to be appended again.
  const headers: [string, string][] = []
  const raw = incoming.rawHeaders
  for (let index = 0; index < raw.length; index += 2) {
    const name = raw[index] as string
    // HTTP/2 pseudo-headers (":path") are not headers to the Fetch API.
    if (name.charCodeAt(0) !== 58) headers.push([name, raw[index + 1] as string])
  }
  const method = incoming.method ?? 'GET'
  if (FORBIDDEN_METHODS.has(method.toUpperCase())) {
    // The Fetch API refuses to build a Request with these (its "forbidden methods"),
    // yet Node's parser takes TRACE. The sandbox only ever answers them 405, with no
    // body read: the Request is built as a GET and reports the method sent, to the
    // core's router, its journal and the user's handlers alike.
    const request = new Request(url, { method: 'GET', headers })
    Object.defineProperty(request, 'method', { value: method, enumerable: true })
    return request
  }
  const init: RequestInit = { method, headers }
  if (body !== undefined && method !== 'GET' && method !== 'HEAD')
    init.body = body as Uint8Array<ArrayBuffer>
  return new Request(url, init)
}

/** Methods `new Request` throws on (Fetch standard, "forbidden method"). */
const FORBIDDEN_METHODS = new Set(['CONNECT', 'TRACE', 'TRACK'])

/**
 * The path and query of a request target, as sent. Proxies send the absolute form
 * (`GET http://host/v1/pets HTTP/1.1`), which HTTP/1.1 servers must accept too: when
 * it names this server (its scheme is http or https and its authority is the `Host`
 * header), its scheme and authority are cut off as text, not through a URL parser,
 * which would resolve dot segments before the sandbox could refuse them. Any other
 * target is returned as sent: `*`, or an absolute form naming another host (a request
 * meant for a proxy), which the core's `checkTarget` refuses with 400 `invalid_path`.
 */
export function originForm(target: string, host: string | undefined): string {
  if (target.charCodeAt(0) === 47) return target
  const absolute = /^https?:\/\/([^/?#]*)/i.exec(target)
  if (!absolute || host === undefined) return target
  if ((absolute[1] as string).toLowerCase() !== host.toLowerCase()) return target
  const rest = target.slice(absolute[0].length)
  return rest.startsWith('/') ? rest : `/${rest}`
}
