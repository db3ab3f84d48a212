import { fail, failureOf, type Failure } from './api-errors.js'
import type { Answer, RouteMatch } from './router.js'
import { truncate } from '../common/text.js'

/**
 * Where a routed request ends, for every scope: the resolver's answer, a thrown domain
 * error turned into its failure (the one error path, `failureOf`), or the 404 and 405
 * written once here for the v1 API, the control API and the standalone server's pages.
 */
export async function answerRoute<R>(
  found: RouteMatch<R>,
  /** `path` as the client sent it, `rest` the part of it below the scope's base. */
  request: { method: string; path: string; rest: string },
  /**
   * The 404's words: what is missing ("endpoint"), what the scope has, and whether it
   * has a path below its base (with any method), for the hint of a trailing slash.
   */
  missing: { what: string; has: () => string; hasPath: (rest: string) => boolean },
  resolve: (route: R, params: Record<string, string>) => Answer | Promise<Answer>,
): Promise<Answer> {
  switch (found.kind) {
    case 'not-found': {
      const rest = request.rest.replace(/\/+$/, '')
      const meant =
        rest !== request.rest && missing.hasPath(rest)
          ? { path: request.path.replace(/\/+$/, ''), why: 'no trailing slash' }
          : undefined
      return noRoute(missing.what, request.method, request.path, missing.has(), meant)
    }
    case 'method-not-allowed':
      return methodNotAllowed(request.method, request.path, found.allow)
    case 'route':
      try {
        return await resolve(found.route, found.params)
      } catch (error) {
        const failure = failureOf(error)
        // A bug of the sandbox: the runtime's own error handling reports it.
        if (failure.code === 'internal_error') throw error
        return failure
      }
  }
}

/** A path the client may have meant, which the server has, and why it differs. */
export interface MeantPath {
  path: string
  /** "no trailing slash", "the API is under /v1". */
  why: string
}

/** A 404: what was asked for, the path meant when one is known, and what the scope has. */
export function noRoute(
  /** What is missing: "endpoint", "control endpoint", "page or endpoint". */
  what: string,
  method: string,
  path: string,
  /** What the scope has: "The v1 API has GET /v1/pets, ...". */
  has: string,
  meant?: MeantPath,
): Failure {
  const hint = meant ? ` Did you mean ${truncate(meant.path, 100)} (${meant.why})?` : ''
  return fail(
    'not_found',
    `No ${what} at ${method.toUpperCase().slice(0, 20)} ${truncate(path, 100)}.${hint} ${has}.`,
  )
}

/** A 405 with `Allow`; `more` says what the path is or where to go instead. */
export function methodNotAllowed(
  method: string,
  path: string,
  allow: string,
  more = '',
): Failure {
  return fail(
    'method_not_allowed',
    `${method.toUpperCase().slice(0, 20)} is not allowed on ${truncate(path, 100)}${more}; allowed: ${allow}.`,
    { allow },
  )
}
