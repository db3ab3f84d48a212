import { fail, type Failure } from './api-errors.js'
import { truncate } from './issues.js'

/**
 * Refuses a path that could name one endpoint to one parser and another to the next:
 * a `.` or `..` segment, or `%2e`, `%2f` or `%5c` (an encoded dot, slash or backslash, any
 * case) inside a segment, or a backslash (WHATWG URLs read it as a slash). Checked
 * before any routing, on the path as the client sent it, so nothing can move a request
 * from `/v1` into `/__sandbox` or anywhere else.
 */
export function checkPath(path: string): Failure | undefined {
  let unsafe = path.includes('\\')
  if (!unsafe) {
    for (const segment of path.split('/')) {
      if (segment === '.' || segment === '..' || /%(?:2e|2f|5c)/i.test(segment)) {
        unsafe = true
        break
      }
    }
  }
  if (!unsafe) return undefined
  return fail(
    'invalid_path',
    `The path ${JSON.stringify(truncate(path, 100))} has a "." or ".." segment, a backslash, or an encoded dot, slash or backslash (%2e, %2f, %5c) inside a segment. The sandbox refuses such paths so that none can reach another endpoint than the one it names: send the path as it is meant, e.g. /v1/pets/1.`,
  )
}

/** A host name, IPv4 or bracketed IPv6 address, and an optional port: nothing else. */
const HOST = /^(?:\[[0-9A-Fa-f:.]+\]|[A-Za-z0-9._~!$&'()*+,;=%-]+)(?::[0-9]{0,5})?$/

/**
 * Refuses a `Host` header that is not a host: one with path, query, fragment or userinfo
 * characters (`/`, `?`, `#`, `@`, `\`) or spaces would rewrite the URL the request is
 * routed on (`Host: 127.0.0.1/__sandbox/reset#`).
 */
export function checkHost(host: string): Failure | undefined {
  if (HOST.test(host) && parses(`http://${host}/`)) return undefined
  return fail(
    'invalid_host',
    `The Host header ${JSON.stringify(truncate(host, 100))} is not a host: it may hold a name or address and a port, e.g. "Host: 127.0.0.1:4010", and no path, query, fragment or user information.`,
  )
}

function parses(url: string) {
  try {
    new URL(url)
    return true
  } catch {
    return false
  }
}
