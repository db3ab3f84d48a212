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
  request: { method: string; path: string },
  /** The 404's words: what is missing ("endpoint") and what the scope has. */
  missing: { what: string; has: () => string },
  resolve: (route: R, params: Record<string, string>) => Answer | Promise<Answer>,
): Promise<Answer> {
  switch (found.kind) {
    case 'not-found':
      return noRoute(missing.what, request.method, request.path, missing.has())
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

/** A 404: what was asked for, a hint when one fits, and what the scope has. */
export function noRoute(
  /** What is missing: "endpoint", "control endpoint", "page or endpoint". */
  what: string,
  method: string,
  path: string,
  /** What the scope has: "The v1 API has GET /v1/pets, ...". */
  has: string,
): Failure {
  const trimmed = path.replace(/\/+$/, '')
  const hint =
    trimmed !== path && trimmed.length > 0
      ? ` Did you mean ${truncate(trimmed, 100)} (no trailing slash)?`
      : ''
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
