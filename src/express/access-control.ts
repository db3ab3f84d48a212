import { createHash, randomBytes, timingSafeEqual } from 'node:crypto'
import type { IncomingMessage } from 'node:http'
import type { NextFunction, Request, Response } from 'express'
import type { Failure } from '../core/http/api-errors.js'
import { quoted } from '../core/common/describe-issues.js'
import { SandboxError } from '../core/common/errors.js'
import {
  controlTokenRequired,
  createTrust,
  forbiddenHost,
  forbiddenOrigin,
  invalidControlToken,
  isLoopbackAddress,
  normalizeAllowedHost,
  normalizeOrigin,
  type Trust,
} from '../core/http/request-trust.js'
import { bodyTypeRefused, CONTROL_BODY } from '../core/http/media-type.js'
import { CORS_ALLOWED_HEADERS, CORS_EXPOSED_HEADERS } from './cors.js'
import { oweApiCorsHeaders } from './api-cors-headers.js'
import { CONTROL_DOCUMENT_PATH } from './openapi-documents.js'

/** Who may use the standalone server; see docs/security.md. */
export interface AccessOptions {
  /**
   * Origins whose pages may use the control API besides the server's own and loopback
   * ones (`https://app.example.com`); the CLI's `--cors-origin`.
   */
  allowedOrigins?: readonly string[]
  /**
   * Host names a server bound to loopback answers besides the machine's own
   * (`my-box.local`; `.example.com` for it and its subdomains); the CLI's `--allowed-host`.
   */
  allowedHosts?: readonly string[]
  /**
   * The control API's token (`X-Sandbox-Control-Token`). Given, it is required on every
   * bind; `'off'` never requires one; left out, a server bound to any address but
   * loopback requires a generated one (`app.controlToken`).
   */
  controlToken?: string
}

/** The answers of the access rules an app needs: refusals go out through `refuse`. */
export interface AccessControl {
  /** The token a locked control API requires; undefined with `controlToken: 'off'`. */
  controlToken: string | undefined
  /** First of all: CORS headers by path and origin (none for the landing page). */
  headers(req: Request, res: Response, next: NextFunction): void
  /** After the target checks: the Host, then the control API's origin, token and body type. */
  guard(req: Request, res: Response, next: NextFunction): void
  /** Answers the CORS preflights that got through the guard. */
  preflight(req: Request, res: Response, next: NextFunction): void
  /**
   * The request's `Origin` when it is not trusted, else undefined: such a page may use
   * the API's existing sessions but not make one (docs/security.md).
   */
  untrustedOrigin(req: IncomingMessage): string | undefined
}

// Every method, so a browser sending PATCH gets the API's 405 and its Error body
// instead of an opaque CORS failure.
const ALLOWED_METHODS = 'GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS'
const EXPOSED = CORS_EXPOSED_HEADERS.join(', ')
const ALLOWED = CORS_ALLOWED_HEADERS.join(', ')

/**
 * A `__sandbox` segment anywhere in the path, in any case: `/v1/../__sandbox` and
 * `//__SANDBOX` are refused later on, and guarding too much is safe.
 */
const CONTROL = /\/__sandbox(?:[/;]|$)/i

/**
 * The access options, checked (a SandboxError naming the option) and normalized; run
 * before the sandbox is made, so a mistake leaves no sandbox holding a store.
 */
export function checkAccessOptions(options: AccessOptions) {
  return {
    allowedOrigins: checkList(options.allowedOrigins, 'allowedOrigins', (entry) =>
      normalizeOrigin(entry),
    ),
    allowedHosts: checkList(options.allowedHosts, 'allowedHosts', (entry) =>
      normalizeAllowedHost(entry),
    ),
    given: checkToken(options.controlToken),
  }
}

/**
 * Builds the access rules of the standalone app. `refuse` answers a refused request
 * (the sandbox journals it and adds the rate-limit headers under `/v1`).
 */
export function createAccessControl(
  options: AccessOptions,
  refuse: (req: Request, res: Response, failure: Failure) => void,
): AccessControl {
  const { allowedOrigins, allowedHosts, given } = checkAccessOptions(options)
  const trust = createTrust({ allowedOrigins, allowedHosts })
  const controlToken = given === 'off' ? undefined : (given ?? createControlToken())
  const rules = new AccessRules(trust, given, controlToken)
  return {
    controlToken,
    untrustedOrigin: (req) => rules.untrustedOrigin(req),
    headers(req, res, next) {
      setCorsHeaders(rules, req, res)
      next()
    },
    guard(req, res, next) {
      const refused = rules.refusal(req)
      if (refused) return refuse(req, res, refused)
      next()
    },
    preflight(req, res, next) {
      if (!isPreflight(req)) return next()
      answerPreflight(rules, req, res)
    },
  }
}

/** One app's access state: whom it trusts, its control token's digest, the binds seen. */
class AccessRules {
  readonly #trust: Trust
  /** The token as the options gave it: undefined, 'off' or the token. */
  readonly #given: string | undefined
  readonly #expected: Buffer | undefined
  readonly #loopbackBinds = new WeakMap<object, boolean>()

  constructor(trust: Trust, given: string | undefined, controlToken: string | undefined) {
    this.#trust = trust
    this.#given = given
    this.#expected = controlToken === undefined ? undefined : digest(controlToken)
  }

  /** Whether a page of `origin` may use the control API of this request's server. */
  originTrusted(origin: string, req: Request): boolean {
    return this.#trust.originTrusted(origin, ownOrigin(req))
  }

  untrustedOrigin(req: IncomingMessage): string | undefined {
    const origin = req.headers.origin
    if (origin === undefined || this.originTrusted(origin, req as Request))
      return undefined
    return origin
  }

  /** Why the request is refused: the Host, then the control API's origin, token and body. */
  refusal(req: Request): Failure | undefined {
    const host = req.headers.host
    if (
      host !== undefined &&
      this.#boundToLoopback(req) &&
      !this.#trust.hostAllowed(host)
    )
      return forbiddenHost(host)
    if (!isControl(req.url)) return undefined
    const origin = this.untrustedOrigin(req)
    if (origin !== undefined) return forbiddenOrigin(origin)
    return isPreflight(req)
      ? undefined
      : (this.#tokenRefused(req) ?? mediaTypeRefused(req))
  }

  /** Whether this request came to a server bound to a loopback address only. */
  #boundToLoopback(req: IncomingMessage): boolean {
    // Node sets `server` on the sockets a server accepts: the bind is the server's
    // address, whoever called listen (listenSandboxApp, app.listen, http.createServer).
    const server = (req.socket as { server?: { address?(): unknown } }).server
    if (server && typeof server.address === 'function') {
      let loopback = this.#loopbackBinds.get(server)
      if (loopback === undefined) {
        const address = server.address()
        // A pipe or an unknown bind is not known to be loopback: locked.
        loopback =
          typeof address === 'object' &&
          address !== null &&
          isLoopbackAddress((address as { address: string }).address)
        this.#loopbackBinds.set(server, loopback)
      }
      return loopback
    }
    const local = req.socket.localAddress
    return local !== undefined && isLoopbackAddress(local)
  }

  #tokenRefused(req: Request): Failure | undefined {
    const expected = this.#expected
    if (expected === undefined) return undefined
    if (this.#given === undefined && this.#boundToLoopback(req)) return undefined
    // An empty header is no header (clients send every header configured, set or not).
    const sent = req.headers['x-sandbox-control-token'] || tokenInQuery(req.url)
    if (sent === undefined || sent === '') return controlTokenRequired()
    // Digests of equal length, compared in constant time: neither the token nor its
    // length leaks through the time of the answer.
    const ok = timingSafeEqual(digest(Array.isArray(sent) ? sent.join() : sent), expected)
    return ok ? undefined : invalidControlToken()
  }
}

function ownOrigin(req: Request) {
  return `${req.protocol}://${req.headers.host ?? 'localhost'}`
}

/** The token a link carries (`/__sandbox/requests?token=...`), for a browser. */
function tokenInQuery(url: string): string | undefined {
  const query = url.indexOf('?')
  if (query === -1) return undefined
  return new URLSearchParams(url.slice(query + 1)).get('token') ?? undefined
}

/** CORS headers by path and origin (none for the landing page). */
function setCorsHeaders(rules: AccessRules, req: Request, res: Response): void {
  const origin = req.headers.origin
  if (isControl(req.url)) {
    res.setHeader('vary', 'Origin')
    if (origin === undefined) {
      res.setHeader('access-control-allow-origin', '*')
    } else if (rules.originTrusted(origin, req)) {
      res.setHeader('access-control-allow-origin', origin)
      res.setHeader('access-control-expose-headers', EXPOSED)
    }
  } else if (!isLandingPage(req.url)) {
    // The API is public (bearer keys, no cookies): every origin may read it. The
    // landing page is not: it shows what GET /__sandbox does (the scenario, the
    // clock, the scenarios the default session defined).
    oweApiCorsHeaders(res)
  }
}

/** Answers a CORS preflight that got through the guard: 204 with what may follow. */
function answerPreflight(rules: AccessRules, req: Request, res: Response): void {
  const requested = req.headers['access-control-request-headers']
  res.setHeader('access-control-allow-methods', ALLOWED_METHODS)
  // Headers a client adds of its own (a request id, tracing) are allowed too: a
  // sandbox that failed a preflight would hide the behaviour the developer came to see.
  res.setHeader(
    'access-control-allow-headers',
    requested ? `${ALLOWED}, ${requested}` : ALLOWED,
  )
  res.setHeader('access-control-max-age', '600')
  res.appendHeader('vary', 'Access-Control-Request-Headers')
  // Chrome's Private Network Access: a public page calling 127.0.0.1 is asked
  // about first; only the machine's own and the allowed pages get a yes.
  const origin = req.headers.origin
  if (
    req.headers['access-control-request-private-network'] === 'true' &&
    origin !== undefined &&
    rules.originTrusted(origin, req)
  ) {
    res.setHeader('access-control-allow-private-network', 'true')
  }
  res.statusCode = 204
  res.end()
}

/** Whether a page's link carries the right token (the landing page passes it on). */
export function tokenMatches(sent: string, token: string | undefined): boolean {
  return token !== undefined && timingSafeEqual(digest(sent), digest(token))
}

/** A fresh control token: 24 random bytes, URL-safe. */
export function createControlToken(): string {
  return randomBytes(24).toString('base64url')
}

function digest(text: string) {
  return createHash('sha256').update(text).digest()
}

/** Whether the control API's rules (origin, token, JSON bodies) apply to this target. */
function isControl(url: string) {
  const query = url.indexOf('?')
  const path = query === -1 ? url : url.slice(0, query)
  // Its OpenAPI document is public, like /openapi.json (see CONTROL_DOCUMENT_PATH).
  return path !== CONTROL_DOCUMENT_PATH && CONTROL.test(path)
}

/**
 * The landing page, rendered from the sandbox's state: `/` with any query, as Express
 * routes it, so with any number of slashes (`//`), in origin or absolute form.
 */
export function isLandingPage(url: string) {
  const path =
    url.charCodeAt(0) === 47 ? url : url.replace(/^[a-z][a-z0-9+.-]*:\/\/[^/?#]*/i, '')
  const end = path.search(/[?#]/)
  return /^\/*$/.test(end === -1 ? path : path.slice(0, end))
}

function isPreflight(req: IncomingMessage) {
  return (
    req.method === 'OPTIONS' && req.headers['access-control-request-method'] !== undefined
  )
}

/** A form or a `text/plain` post could reach the control API unasked: JSON only. */
function mediaTypeRefused(req: IncomingMessage): Failure | undefined {
  const length = req.headers['content-length']
  const body =
    req.headers['transfer-encoding'] !== undefined ||
    (length !== undefined && length !== '0')
  return bodyTypeRefused(req.headers['content-type'], body, CONTROL_BODY)
}

function checkList(
  list: readonly string[] | string | undefined,
  name: string,
  normalize: (entry: string) => string | undefined,
): string[] {
  if (list === undefined) return []
  if (!Array.isArray(list)) {
    const example =
      name === 'allowedOrigins' ? '"https://app.example.com"' : '"my-box.local"'
    throw SandboxError.for(
      'INVALID_OPTION',
      'create the sandbox app',
      `${name} must be an array of strings, got ${quoted(list, 100)}`,
      `Put it in brackets, even for one: ${name}: [${typeof list === 'string' ? JSON.stringify(list.slice(0, 100)) : example}].`,
    )
  }
  return list.map((entry) => {
    const normalized = typeof entry === 'string' ? normalize(entry) : undefined
    if (normalized === undefined) throw invalidOption(name, quoted(entry, 100))
    return normalized
  })
}

function invalidOption(name: string, value: string) {
  return SandboxError.for(
    'INVALID_OPTION',
    'create the sandbox app',
    `${name} holds ${value.slice(0, 100)}, which is not ${name === 'allowedOrigins' ? 'an origin' : 'a host name'}`,
    name === 'allowedOrigins'
      ? 'Give origins as the browser sends them, e.g. "https://app.example.com" or "http://localhost:5173" (scheme, host, optional port, no path).'
      : 'Give host names, e.g. "my-box.local", or ".example.com" for it and its subdomains (no scheme, no path).',
  )
}

function checkToken(token: string | undefined): string | undefined {
  if (token === undefined) return undefined
  if (typeof token !== 'string' || token.trim() === '' || /[^\x21-\x7e]/.test(token)) {
    throw SandboxError.for(
      'INVALID_OPTION',
      'create the sandbox app',
      'controlToken is not a token of visible ASCII characters',
      'Give a string such as the output of "openssl rand -hex 24", or "off" for none.',
    )
  }
  return token
}
