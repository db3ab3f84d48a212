import { SandboxError } from '../common/errors.js'

/** Where the v1 API lives: an origin (or any origin) and a path prefix. */
export interface ApiBase {
  /** `https://api.example.com`, or undefined for any origin. */
  origin: string | undefined
  /** `/v1` by default. */
  path: string
}

const ANY_ORIGIN = '[a-z][a-z0-9+.-]*://[^/]+'

/**
 * Parses the `baseUrl` option: a full base address (`https://api.example.com/v1`) or a
 * path (`/v1`, matched on any origin). Both of the seed's base addresses end in `/v1`.
 */
export function parseBaseUrls(
  baseUrl: string | readonly string[] | undefined,
): ApiBase[] {
  const list =
    baseUrl === undefined ? ['/v1'] : typeof baseUrl === 'string' ? [baseUrl] : baseUrl
  if (list.length === 0) {
    throw SandboxError.for(
      'INVALID_OPTION',
      'read the baseUrl option',
      'it is an empty list',
      'Leave it out to match /v1 on any origin, or give at least one base address.',
    )
  }
  return list.map((entry) => {
    if (typeof entry === 'string' && entry.startsWith('/')) {
      return { origin: undefined, path: trimSlash(entry) }
    }
    let url: URL
    try {
      url = new URL(String(entry))
    } catch {
      throw SandboxError.for(
        'INVALID_OPTION',
        'read the baseUrl option',
        `${JSON.stringify(entry)} is neither an absolute URL nor a path starting with "/"`,
        'Use e.g. "https://api.example.com/v1" or "/v1".',
      )
    }
    if (url.search || url.hash) {
      throw SandboxError.for(
        'INVALID_OPTION',
        'read the baseUrl option',
        `${JSON.stringify(entry)} has a query or fragment`,
        'Give only the origin and path, e.g. "https://api.example.com/v1".',
      )
    }
    return { origin: url.origin, path: trimSlash(url.pathname) }
  })
}

function trimSlash(path: string) {
  return path.replace(/\/+$/, '')
}

function escape(text: string) {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')
}

/** One RegExp that matches every URL under the paths `pathsOf` gives for each base. */
export function basePattern(
  bases: ApiBase[],
  pathsOf: (base: ApiBase) => string[],
): RegExp {
  const alternatives = bases.flatMap((base) =>
    pathsOf(base).map(
      (path) =>
        `${base.origin ? escape(base.origin) : ANY_ORIGIN}${escape(path)}(?:/.*)?`,
    ),
  )
  return new RegExp(`^(?:${alternatives.join('|')})$`)
}

/** The path below the matching base (`/pets/1`), or undefined when none matches. */
export function matchBase(
  bases: ApiBase[],
  origin: string,
  path: string,
  pathOf: (base: ApiBase) => string,
): { base: ApiBase; rest: string } | undefined {
  for (const base of bases) {
    if (base.origin && base.origin !== origin) continue
    const prefix = pathOf(base)
    if (path === prefix) return { base, rest: '' }
    if (path.startsWith(`${prefix}/`)) return { base, rest: path.slice(prefix.length) }
  }
  return undefined
}
