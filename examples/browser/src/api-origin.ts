/** Where the page calls the API: `origin` ('' for this page's own), and why `?api=` was not taken. */
export interface ApiOrigin {
  origin: string
  /** Set when `?api=` held something that is not an http(s) origin; the page shows it. */
  refused?: string
}

/**
 * The API origin from `?api=`: only the origin (scheme, host, port) of an `http:` or
 * `https:` URL. Anything else (`javascript:`, `data:`, `//host`) would become the
 * inspector link's target or a fetch target, so it falls back to this page's origin. The
 * standalone server reads the same query with the same rule (src/express/page-headers.ts)
 * and lets the page connect to that origin only.
 */
export function apiOrigin(value: string | null): ApiOrigin {
  if (!value) return { origin: '' }
  let url: URL | undefined
  try {
    url = new URL(value)
  } catch {
    url = undefined
  }
  if (
    url &&
    (url.protocol === 'http:' || url.protocol === 'https:') &&
    CSP_HOST.test(url.hostname)
  ) {
    return { origin: url.origin }
  }
  return {
    origin: '',
    refused: `?api= takes the http(s) origin of a sandbox, such as http://127.0.0.1:4010; "${value.slice(0, 100)}" is not one, so this page calls the API on its own origin.`,
  }
}

/** A host name or an IP address a Content-Security-Policy source can hold. */
const CSP_HOST = /^(?:\[[0-9a-f:.]+\]|[a-z0-9-]+(?:\.[a-z0-9-]+)*\.?)$/
