import { ServerResponse } from 'node:http'
import { CORS_EXPOSED_HEADERS } from './cors.js'

/**
 * The API's CORS headers (every origin may read it: bearer keys, no cookies), first in
 * the head of every answer of the app under the API's paths, whoever writes it.
 */
const API_CORS = [
  'access-control-allow-origin',
  '*',
  'access-control-expose-headers',
  CORS_EXPOSED_HEADERS.join(', '),
]

/** The responses that owe the API's CORS headers until their head is written. */
const owing = new WeakSet<ServerResponse>()

/**
 * The response of a request of the API gets its CORS headers with its head. They are
 * not set on it now: a header set before `writeHead` turns Node's one pass over the
 * answer's header list into removing, validating and appending each header again (about
 * 3% of a GET's instructions, bench/instructions-per-request.js).
 */
export function oweApiCorsHeaders(res: ServerResponse): void {
  owing.add(res)
}

/**
 * Makes the responses of an Express app (`app.response`, the prototype Express gives
 * each `res`) write the CORS headers they owe first in their head, as if set before
 * anything else: the answer's own headers of the same name win. Every writer of the app
 * (the sandbox's answers, pages, files, a preflight, a user's handler) ends in
 * `writeHead`, called or implied by the first write.
 */
export function writeOwedCorsHeaders(response: object): void {
  const writeHead = ServerResponse.prototype.writeHead
  Object.defineProperty(response, 'writeHead', {
    configurable: true,
    writable: true,
    // writeHead(statusCode, [reason], [headers]), as Node's.
    value: function writeHeadOwing(this: ServerResponse, ...args: unknown[]) {
      if (owing.delete(this)) {
        const at = typeof args[1] === 'string' ? 2 : 1
        const list = args[at]
        if (Array.isArray(list) && this.getHeaderNames().length === 0) {
          args[at] = withApiCors(list as string[])
        } else setFirst(this)
      }
      return writeHead.apply(this, args as Parameters<typeof writeHead>)
    },
  })
}

/** `list` ([name, value, ...]) after the API's CORS headers it does not name. */
function withApiCors(list: readonly string[]): string[] {
  const all: string[] = []
  for (let index = 0; index < API_CORS.length; index += 2) {
    const name = API_CORS[index] as string
    if (!names(list, name)) all.push(name, API_CORS[index + 1] as string)
  }
  for (const item of list) all.push(item)
  return all
}

/** Whether a header list names `lower` (a lowercase name), in any case. */
function names(list: readonly string[], lower: string): boolean {
  for (let index = 0; index < list.length; index += 2) {
    const name = String(list[index])
    if (name.length === lower.length && name.toLowerCase() === lower) return true
  }
  return false
}

/** The API's CORS headers set before the headers set on `res` already, which win. */
function setFirst(res: ServerResponse): void {
  // The names as set (their case goes out as set), in the order they were set.
  const raw = (
    res as ServerResponse & { getRawHeaderNames(): string[] }
  ).getRawHeaderNames()
  const set = raw.map((name) => [name, res.getHeader(name)] as const)
  for (const [name] of set) res.removeHeader(name)
  for (let index = 0; index < API_CORS.length; index += 2)
    res.setHeader(API_CORS[index] as string, API_CORS[index + 1] as string)
  for (const [name, value] of set) if (value !== undefined) res.setHeader(name, value)
}
