import type { Failure } from './api-errors.js'
import type { HeaderMap } from './reply.js'

/**
 * Routing for every scope (the v1 API's table in api/routes.ts, the control API's in
 * control/routes.ts, the standalone server's pages): a route's shape, a compiled router,
 * `Allow`, and the endpoints named in messages.
 * @see docs/design.md
 */

/** The methods of the route table; HEAD is answered wherever GET is (`createRouter`). */
export type Method = 'GET' | 'POST' | 'PUT' | 'DELETE'

/** What a resolver answers: a status and a JSON body, or a failure. */
export type Answer = { status: number; body: unknown; headers?: HeaderMap } | Failure

export interface RouteBase {
  method: Method
  /** The path below the scope's base, as an OpenAPI template (`/pets/{petId}`); '' is the base itself. */
  path: string
  operationId: string
  deprecated?: true
}

/** Where a method and path lead in one scope. */
export type RouteMatch<R> =
  | { kind: 'route'; route: R; params: Record<string, string> }
  /** The path exists, not with this method: 405 with `Allow`. */
  | { kind: 'method-not-allowed'; allow: string }
  | { kind: 'not-found' }

interface CompiledPath<R> {
  pattern: RegExp
  names: string[]
  routes: R[]
  allow: string
}

/**
 * A router over one scope's routes: each path template compiled once, methods grouped
 * by path so `Allow` lists them in table order.
 */
export function createRouter<R extends RouteBase>(
  routes: readonly R[],
): (method: string, path: string) => RouteMatch<R> {
  const paths: CompiledPath<R>[] = []
  for (const route of routes) {
    let compiled = paths.find((entry) => entry.routes[0]?.path === route.path)
    if (!compiled) {
      const names: string[] = []
      const source = route.path
        .split(/(\{[^}]+\})/)
        .map((part) => {
          const name = /^\{([^}]+)\}$/.exec(part)?.[1]
          if (name === undefined) return part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')
          names.push(name)
          return '([^/]+)'
        })
        .join('')
      compiled = { pattern: new RegExp(`^${source}$`), names, routes: [], allow: '' }
      paths.push(compiled)
    }
    compiled.routes.push(route)
    compiled.allow = allowedMethods(compiled.routes)
  }
  return (method, path) => {
    for (const compiled of paths) {
      const match = compiled.pattern.exec(path)
      if (!match) continue
      // HEAD is GET without the body (RFC 9110, 9.3.2): the GET route answers it, and
      // the transport leaves the body out.
      const wanted = method === 'HEAD' ? 'GET' : method
      const route = compiled.routes.find((entry) => entry.method === wanted)
      if (!route) return { kind: 'method-not-allowed', allow: compiled.allow }
      const params: Record<string, string> = {}
      compiled.names.forEach((name, index) => {
        params[name] = match[index + 1] as string
      })
      return { kind: 'route', route, params }
    }
    return { kind: 'not-found' }
  }
}

/**
 * The `Allow` of routes of one path, in table order: `HEAD` right after `GET`, since
 * every GET route answers HEAD too (`GET, HEAD, POST` on `/pets`).
 */
export function allowedMethods(routes: readonly RouteBase[]): string {
  return routes
    .flatMap((route) => (route.method === 'GET' ? ['GET', 'HEAD'] : [route.method]))
    .filter((method, index, all) => all.indexOf(method) === index)
    .join(', ')
}

/** "GET /v1/pets, POST /v1/pets and GET /v1/pets/{petId}": a scope's endpoints for messages. */
export function listEndpoints<R extends RouteBase>(
  routes: readonly R[],
  base: string,
  include: (route: R) => boolean = () => true,
): string {
  const names = routes
    .filter(include)
    .map((route) => `${route.method} ${base}${route.path}`)
  return names.length <= 1
    ? names.join('')
    : `${names.slice(0, -1).join(', ')} and ${names.at(-1)}`
}
