import { fail, type Failure } from './api-errors.js'
import { truncate } from '../common/text.js'

/**
 * Who the standalone server trusts: which `Origin` may use the control API and which
 * `Host` a server bound to loopback answers. Pure functions over header values, so the
 * rules have one home whatever serves them; the Express app applies them.
 * @see docs/security.md
 */

/** Origins and hosts the user allows besides the machine's own. */
export interface TrustOptions {
  /** Origins (`https://app.example.com:8443`) trusted like loopback ones. */
  allowedOrigins?: readonly string[]
  /** Host names a server bound to loopback answers too; `.example.com` includes subdomains. */
  allowedHosts?: readonly string[]
}

/**
 * Whether a host name, as the WHATWG URL parser writes it (`127.0.0.1`, `[::1]`,
 * `localhost.`), names this machine: `localhost` and its subdomains (RFC 6761 reserves
 * them for loopback, and browsers resolve them so), 127.0.0.0/8, `[::1]` and the
 * IPv4-mapped form of 127.0.0.0/8. A trailing dot is the same name.
 */
export function isLoopbackHostname(hostname: string): boolean {
  let name = hostname.toLowerCase()
  if (name.endsWith('.')) name = name.slice(0, -1)
  if (name === 'localhost' || name.endsWith('.localhost')) return true
  if (/^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(name)) return true
  if (name === '[::1]') return true
  // The parser writes ::ffff:127.0.0.1 as [::ffff:7f00:1].
  const mapped = /^\[::ffff:([0-9a-f]{1,4}):[0-9a-f]{1,4}\]$/.exec(name)
  return mapped !== null && parseInt(mapped[1] as string, 16) >> 8 === 127
}

/**
 * Whether an address a server listens on (`127.0.0.1`, `::1`, `::ffff:127.0.0.1`, as
 * Node reports it) is a loopback address. `0.0.0.0` and `::` are every interface.
 */
export function isLoopbackAddress(address: string): boolean {
  const hostname = hostnameOf(address.includes(':') ? `[${address}]` : address)
  return hostname !== undefined && isLoopbackHostname(hostname)
}

/** The host name of a `Host` value (`LOCALHOST:4010` -> `localhost`), or undefined. */
export function hostnameOf(host: string): string | undefined {
  if (/[/?#@\\\s]/.test(host)) return undefined
  try {
    return new URL(`http://${host}/`).hostname
  } catch {
    return undefined
  }
}

/**
 * An origin as browsers send it (`http://localhost:5173`), normalised (`http://x:80` is
 * `http://x`); undefined for anything else: `null`, a path, another scheme.
 */
export function normalizeOrigin(origin: string): string | undefined {
  if (!/^https?:\/\/[^/?#@\\\s]+$/i.test(origin)) return undefined
  try {
    return new URL(origin).origin
  } catch {
    return undefined
  }
}

/**
 * An entry of `allowedHosts` as it is compared: a lower-case host name, a leading `.`
 * kept (subdomains too); a port is dropped (every port of the name is allowed).
 * Undefined when the entry is not a host name.
 */
export function normalizeAllowedHost(entry: string): string | undefined {
  const dot = entry.startsWith('.') && entry.length > 1
  const hostname = hostnameOf(dot ? entry.slice(1) : entry)
  if (hostname === undefined || hostname === '') return undefined
  return dot ? `.${hostname}` : hostname
}

/** The trust rules of one server, with the user's origins and hosts compiled once. */
export interface Trust {
  /** Whether a page of `origin` may use the control API of a server reached as `ownOrigin`. */
  originTrusted(origin: string, ownOrigin: string): boolean
  /** Whether a server bound to loopback answers a request with this `Host`. */
  hostAllowed(host: string): boolean
}

/** Builds the rules; entries that are not origins or host names are the caller's to refuse. */
export function createTrust(options: TrustOptions = {}): Trust {
  const origins = new Set(
    (options.allowedOrigins ?? []).map((entry) => normalizeOrigin(entry) ?? entry),
  )
  const hosts = (options.allowedHosts ?? []).map(
    (entry) => normalizeAllowedHost(entry) ?? entry,
  )
  // Browsers send a handful of distinct values: remember the answers, bounded.
  const hostAnswers = new Map<string, boolean>()
  // Every /v1 request of a browser page asks about its Origin: remember, bounded.
  const originAnswers = new Map<string, boolean>()
  return {
    originTrusted(origin, ownOrigin) {
      const asked = `${origin} ${ownOrigin}`
      let trusted = originAnswers.get(asked)
      if (trusted !== undefined) return trusted
      const normalized = normalizeOrigin(origin)
      trusted =
        normalized !== undefined &&
        (normalized === normalizeOrigin(ownOrigin) ||
          origins.has(normalized) ||
          isLoopbackHostname(new URL(normalized).hostname))
      if (originAnswers.size >= 256) originAnswers.clear()
      originAnswers.set(asked, trusted)
      return trusted
    },
    hostAllowed(host) {
      let allowed = hostAnswers.get(host)
      if (allowed !== undefined) return allowed
      const hostname = hostnameOf(host)
      allowed =
        hostname !== undefined &&
        (isLoopbackHostname(hostname) ||
          hosts.some((entry) => {
            const name = hostname.endsWith('.') ? hostname.slice(0, -1) : hostname
            if (!entry.startsWith('.')) return entry === name || entry === hostname
            return name === entry.slice(1) || name.endsWith(entry)
          }))
      if (hostAnswers.size >= 256) hostAnswers.clear()
      hostAnswers.set(host, allowed)
      return allowed
    },
  }
}

/** 403 `forbidden_origin`: a page of another site asked the control API. */
export function forbiddenOrigin(origin: string): Failure {
  const shown = JSON.stringify(truncate(origin, 100))
  return fail(
    'forbidden_origin',
    `The control API (/__sandbox) answers only pages of this machine, and the Origin ${shown} is not one: it trusts this server's own origin, loopback origins (http or https, localhost, 127.0.0.1, [::1], any port) and origins allowed with --cors-origin (option allowedOrigins). ${normalizeOrigin(origin) === undefined ? 'An Origin "null" (a sandboxed frame, a file:// page) is never trusted.' : `Start the sandbox with --cors-origin ${normalizeOrigin(origin)} if this page should control it.`}`,
  )
}

/**
 * 403 `forbidden_origin` on `/v1`: a page of another site named a session that does not
 * exist. It may use the default session and live ones; making sessions is for the
 * machine's own pages and tools, or a page of one flood could evict every other session.
 */
export function forbiddenSessionOrigin(origin: string, session: string): Failure {
  const normalized = normalizeOrigin(origin)
  return fail(
    'forbidden_origin',
    `A page of the Origin ${JSON.stringify(truncate(origin, 100))} may use the default session and sessions that exist, but not make one, and the session "${session}" does not exist. Sessions are made by requests without an Origin (tests, curl), by this server's own pages, loopback origins (http or https, localhost, 127.0.0.1, [::1], any port) and origins allowed with --cors-origin (option allowedOrigins). ${normalized === undefined ? 'An Origin "null" (a sandboxed frame, a file:// page) is never trusted: make the session first from one of those.' : `Start the sandbox with --cors-origin ${normalized} if this page should make sessions, or make the session first from one of those.`}`,
  )
}

/** 403 `forbidden_host`: a server bound to loopback got a `Host` that does not name it. */
export function forbiddenHost(host: string): Failure {
  const hostname = hostnameOf(host)
  return fail(
    'forbidden_host',
    `This server listens on a loopback address and answers only Host names of this machine (localhost, 127.0.0.1, [::1], any port), so that a page of another site cannot reach it through DNS rebinding; the Host ${JSON.stringify(truncate(host, 100))} is not one. Start the sandbox with --allowed-host ${hostname ?? '<name>'} (option allowedHosts) to answer it.`,
  )
}

/** 401 `control_token_required`: the control API is locked and no token came with the request. */
export function controlTokenRequired(): Failure {
  return fail(
    'control_token_required',
    'The control API (/__sandbox) of this server needs its control token: send it as "X-Sandbox-Control-Token: <token>". The standalone server prints it in its banner (set it with --control-token or PETSTORE_SANDBOX_CONTROL_TOKEN); in code it is app.controlToken.',
  )
}

/** 403 `invalid_control_token`: a token came, not the right one. */
export function invalidControlToken(): Failure {
  return fail(
    'invalid_control_token',
    "The X-Sandbox-Control-Token header does not hold this server's control token. Use the token the banner printed (or the one given with --control-token or PETSTORE_SANDBOX_CONTROL_TOKEN).",
  )
}
