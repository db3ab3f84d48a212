import { fail, type Failure } from './api-errors.js'
import { truncate } from '../common/text.js'

/**
 * Refuses a request target the sandbox cannot route on as sent, before any routing, so
 * that every runtime answers it alike (400 `invalid_path`, never a 500 or a 404):
 * - a target that is not a path: `*` (a request to the server as a whole), or the
 *   absolute form naming another host (`GET http://evil.example/v1/pets`: a request for
 *   a proxy; a transport strips the absolute form of a request naming its own Host
 *   before calling this, see `src/express/to-fetch-request.ts`);
 * - a path that could name one endpoint to one parser and another to the next: a `.` or
 *   `..` segment, or `%2e`, `%2f` or `%5c` (an encoded dot, slash or backslash, any
 *   case) inside a segment, or a backslash (WHATWG URLs read it as a slash), so nothing
 *   can move a request from `/v1` into `/__sandbox` or anywhere else;
 * - a malformed percent-escape anywhere in the path or the query (`%ZZ`, `%A` at the
 *   end, or escapes that are not UTF-8 such as `%E0%A4`): no parameter of the API can
 *   mean anything by them, and `decodeURIComponent` throws on them.
 * `target` is the path and query as the client sent them.
 */
export function checkTarget(target: string): Failure | undefined {
  if (target.charCodeAt(0) !== 47) return notAPath(target)
  return checkPathTarget(target)
}

/** A check of a request target: its refusal, or undefined. */
export type TargetCheck = (target: string) => Failure | undefined

/**
 * {@link checkTarget} of a target that is a path, as every target of an msw runtime is (a
 * URL's path and query): the pipeline's own check, so the words for targets that are not
 * paths, which only a server receives, stay out of the browser entry.
 */
export function checkPathTarget(target: string): Failure | undefined {
  const query = target.indexOf('?')
  const path = query === -1 ? target : target.slice(0, query)
  if (unsafePath(path)) {
    return fail(
      'invalid_path',
      `The path ${JSON.stringify(truncate(path, 100))} has a "." or ".." segment, a backslash, or an encoded dot, slash or backslash (%2e, %2f, %5c) inside a segment. The sandbox refuses such paths so that none can reach another endpoint than the one it names: send the path as it is meant, e.g. /v1/pets/1.`,
    )
  }
  if (target.includes('%') && !decodes(target)) {
    const [where, part] = decodes(path) ? ['query', target.slice(query)] : ['path', path]
    return fail(
      'invalid_path',
      `The ${where} ${JSON.stringify(truncate(part, 100))} has a malformed percent-escape: every "%" must start an escape of two hexadecimal digits, and the escaped bytes must be UTF-8 (e.g. %20 for a space, %C3%A9 for "é"). Send "%" itself as %25.`,
    )
  }
  return undefined
}

/** Whether a path has a dot segment, a backslash, or an encoded dot, slash or backslash. */
function unsafePath(path: string): boolean {
  // Most paths have no dot segment, escape or backslash to look for.
  if (!path.includes('/.') && !path.includes('%') && !path.includes('\\')) return false
  if (path.includes('\\')) return true
  for (const segment of path.split('/')) {
    if (segment === '.' || segment === '..' || /%(?:2e|2f|5c)/i.test(segment)) return true
  }
  return false
}

/**
 * Whether every escape of a target decodes: checking the whole target at once is the
 * same as checking each segment and parameter, since the characters that separate them
 * (`/ ? & = +`) are ASCII and cannot stand inside a UTF-8 sequence.
 */
function decodes(text: string): boolean {
  try {
    decodeURIComponent(text)
    return true
  } catch {
    return false
  }
}

/** The scheme and authority of an absolute-form request target (RFC 9112, 3.2.2). */
const ABSOLUTE_FORM = /^[A-Za-z][A-Za-z0-9+.-]*:\/\/([^/?#]*)/

function notAPath(target: string): Failure {
  if (target === '*') {
    return fail(
      'invalid_path',
      'The request target "*" names the server as a whole (the asterisk form of OPTIONS), not a resource: the sandbox answers paths only. Send a path, e.g. GET /v1/pets or OPTIONS /v1/pets.',
    )
  }
  const absolute = ABSOLUTE_FORM.exec(target)
  if (absolute) {
    return fail(
      'invalid_path',
      `The request target ${JSON.stringify(truncate(target, 100))} names the host ${JSON.stringify(truncate(absolute[1] ?? '', 60))}, not the one of the Host header: this server is not a proxy. Send the path alone (GET /v1/pets) with the server's name in Host, or an absolute URL naming this server.`,
    )
  }
  return fail(
    'invalid_path',
    `The request target ${JSON.stringify(truncate(target, 100))} is not a path: it must start with "/", e.g. GET /v1/pets.`,
  )
}

/**
 * The path of a request target as sent, for deciding whose it is: the target's own for
 * the origin form, the part after the authority for the absolute form, the target
 * itself otherwise (`*`). Cut as text: a URL parser would fold dot segments first.
 */
export function targetPath(target: string): string {
  const query = target.indexOf('?')
  const beforeQuery = query === -1 ? target : target.slice(0, query)
  if (beforeQuery.charCodeAt(0) === 47) return beforeQuery
  const absolute = ABSOLUTE_FORM.exec(beforeQuery)
  if (!absolute) return beforeQuery
  const rest = beforeQuery.slice(absolute[0].length)
  return rest.startsWith('/') ? rest : `/${rest}`
}

/**
 * Decodes a path parameter (`petId`, a session `id`). Targets with malformed escapes
 * are refused before routing (`checkTarget`), so this does not fail on a request the
 * sandbox routed; it answers 400 `invalid_path` rather than throw if it ever does.
 */
export function decodeParam(name: string, raw: string): string | Failure {
  try {
    return decodeURIComponent(raw)
  } catch {
    return fail(
      'invalid_path',
      `The path parameter ${name} ${JSON.stringify(truncate(raw, 70))} has a malformed percent-escape. Send "%" itself as %25.`,
    )
  }
}

/** The last Host found sound: a client sends the same one with every request. */
let lastHost: string | undefined

/** A host name, IPv4 or bracketed IPv6 address, and an optional port: nothing else. */
const HOST = /^(?:\[[0-9A-Fa-f:.]+\]|[A-Za-z0-9._~!$&'()*+,;=%-]+)(?::[0-9]{0,5})?$/

/**
 * Refuses a `Host` header that is not a host: one with path, query, fragment or userinfo
 * characters (`/`, `?`, `#`, `@`, `\`) or spaces would rewrite the URL the request is
 * routed on (`Host: 127.0.0.1/__sandbox/reset#`).
 */
export function checkHost(host: string): Failure | undefined {
  if (host === lastHost) return undefined
  if (HOST.test(host) && parses(`http://${host}/`)) {
    lastHost = host
    return undefined
  }
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
