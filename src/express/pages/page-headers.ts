import type { ServerResponse } from 'node:http'

// One home for the headers of every page the standalone server serves: the landing page
// at /, /demo/, /docs/, /inspector/, and the redirects to them. A page left out of it
// could be framed by another origin, where a hidden Reset button is one click away from
// wiping a --persist sandbox (clickjacking), or could run an injected inline script in
// the origin the control API trusts.

/**
 * The pages' policy: scripts and everything they fetch from this server only (no inline
 * script, no `javascript:` URL); styles may be inline (Swagger UI sets some); only this
 * server may frame them.
 */
const PAGE_POLICY = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data:",
  "font-src 'self'",
  "form-action 'self'",
  "base-uri 'none'",
  "frame-ancestors 'self'",
]

/** What a page may differ in. */
export interface PageHeaderOptions {
  /** An origin besides this server's the page may fetch from (the demo's `?api=`). */
  connectTo?: string | undefined
  /** `no-store` for a page rendered from the sandbox's state; `no-cache` by default. */
  cache?: 'no-store' | 'no-cache'
}

/** The headers of a page (or a redirect to one). */
export function pageHeaders(options: PageHeaderOptions = {}): Record<string, string> {
  const connect = ["'self'", ...(options.connectTo ? [options.connectTo] : [])]
  return {
    'content-security-policy': [...PAGE_POLICY, `connect-src ${connect.join(' ')}`].join(
      '; ',
    ),
    // For browsers older than CSP's frame-ancestors; newer ones follow the policy.
    'x-frame-options': 'SAMEORIGIN',
    // A page's URL may hold the control token: it never leaves as a referrer.
    'referrer-policy': 'no-referrer',
    'x-content-type-options': 'nosniff',
    'cache-control': options.cache ?? 'no-cache',
  }
}

/** Sets the page headers on a response that is about to be sent. */
export function setPageHeaders(res: ServerResponse, options?: PageHeaderOptions) {
  for (const [name, value] of Object.entries(pageHeaders(options))) {
    res.setHeader(name, value)
  }
}

/**
 * The API origin a demo page was pointed at with `?api=` (the whole query, as sent), or
 * undefined when it names none or one the page must not use. Only an `http:` or `https:`
 * URL counts, and only its origin (scheme, host, port): a `javascript:` or `data:` value
 * would become a link that runs script in this server's origin, and a host with
 * characters a CSP source cannot hold (`;`, `,`, quotes) would rewrite the policy.
 * examples/browser/src/api-origin.ts takes the same rule, so the page uses exactly the
 * origin this policy allows.
 */
export function demoApiOrigin(query: string): string | undefined {
  const value = new URLSearchParams(query).get('api')
  if (!value) return undefined
  let url: URL
  try {
    url = new URL(value)
  } catch {
    return undefined
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return undefined
  return CSP_HOST.test(url.hostname) ? url.origin : undefined
}

/** A host name or an IP address as a CSP host-source writes it (RFC 3986 reg-name letters only). */
const CSP_HOST = /^(?:\[[0-9a-f:.]+\]|[a-z0-9-]+(?:\.[a-z0-9-]+)*\.?)$/
