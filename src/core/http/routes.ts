import type { SandboxWorld } from '../world/world.js'
import type { KnownKey } from '../api/auth.js'
import type { Failure } from './api-errors.js'
import type { HeaderMap } from './reply.js'
import type { JournalEntry } from '../coach/journal.js'
import type { PetData } from '../data/pet-data.js'
import {
  createSession,
  deleteSession,
  getClock,
  getScenario,
  getRequest,
  getReport,
  getState,
  listRequests,
  listSessions,
  putScenario,
  resetSandbox,
  setClock,
} from '../control/control-operations.js'
import { exportHar, exportSession } from '../control/carry-operations.js'
import { createPet, getPet, listOrders, listPets } from '../api/pet-operations.js'
import { deleteDefinedScenario, putDefinedScenario } from '../control/scenario-operations.js'
import type { Sandbox } from '../world/sandbox-types.js'
import type { Operation, Scenario } from '../scenarios/scenarios.js'

/**
 * The route table: every operation of the v1 API and of the control API, once. Routing,
 * `Allow`, the 404 hints, the journal's operation names, the landing page, the banner
 * and the OpenAPI `paths` all read it.
 * @see docs/design.md
 */

/** The methods of the route table; HEAD is answered wherever GET is (`createRouter`). */
export type Method = 'GET' | 'POST' | 'PUT' | 'DELETE'

/** What a resolver answers: a status and a JSON body, or a failure. */
export type Answer = { status: number; body: unknown; headers?: HeaderMap } | Failure

/** What an operation of the v1 API gets. */
export interface ApiCall {
  world: SandboxWorld
  request: Request
  url: URL
  /** Path parameters by name (`petId`), as sent (still percent-encoded). */
  params: Record<string, string>
  scenario: Scenario
  /** The key the request was authenticated with. */
  key: KnownKey
  /** The base path the request came in on (`/v1`), for messages and links. */
  apiBase: string
  /** The data this request sees (a data scenario's own, or the sandbox's). */
  dataset(): Promise<PetData>
  /** The request body, as the transport read it. */
  body(): Promise<Uint8Array>
}

/** What an operation of the control API gets. */
export interface ControlCall {
  sandbox: Sandbox
  /** The session the request names (made on first use): the sandbox itself by default. */
  session(): SandboxWorld
  /** A journal entry by request id, from whichever session holds it. */
  findRequest(id: number): JournalEntry | undefined
  request: Request
  url: URL
  /** Path parameters by name (`id`), as sent (still percent-encoded). */
  params: Record<string, string>
  /** The request body, as the transport read it. */
  body(): Promise<Uint8Array>
  /**
   * Takes room for a large answer of about `bytes` before it is built: a 503 failure
   * when the server has none now (pipeline.ts HandleInit `reserve`).
   */
  reserve?: (bytes: number) => Failure | undefined
}

interface RouteBase {
  method: Method
  /** The path below the scope's base, as an OpenAPI template (`/pets/{petId}`); '' is the base itself. */
  path: string
  operationId: string
  /** One line for the landing page, the banner and the OpenAPI summary. */
  summary: string
  deprecated?: true
}

export interface ApiRoute extends RouteBase {
  /** The seed's operation names; `listOrders` is mentioned by the seed, not modelled. */
  operationId: Operation | 'listOrders'
  /** Whether the sandbox models it (false: 501, its shape is not published). */
  modelled: boolean
  resolve(call: ApiCall): Answer | Promise<Answer>
}

export interface ControlRoute extends RouteBase {
  resolve(call: ControlCall): Answer | Promise<Answer>
}

/** Where the v1 API's operations live below each base address (`/v1`). */
export const API_ROUTES: readonly ApiRoute[] = [
  {
    method: 'GET',
    path: '/pets',
    operationId: 'listPets',
    summary: 'List animals: ?limit=1..100 (default 20), ?status=available|pending|sold.',
    modelled: true,
    resolve: listPets,
  },
  {
    method: 'POST',
    path: '/pets',
    operationId: 'createPet',
    summary:
      'Add an animal: {"name":"Rex","categoryId":1,"status":"available"} → 201 Pet.',
    modelled: true,
    resolve: createPet,
  },
  {
    method: 'GET',
    path: '/pets/{petId}',
    operationId: 'getPet',
    summary:
      'Get an animal. Deprecated: Deprecation, Sunset (5 December 2030) and Link headers; 410 after the sunset.',
    deprecated: true,
    modelled: true,
    resolve: getPet,
  },
  {
    method: 'GET',
    path: '/store/orders',
    operationId: 'listOrders',
    summary: 'Mentioned by the API, shape not published: 501 not_implemented.',
    modelled: false,
    resolve: listOrders,
  },
]

/** The control API's base path, beside the API's on every origin the API answers. */
export const CONTROL_PATH = '/__sandbox'

/** The control API (`/__sandbox`), in every runtime. */
export const CONTROL_ROUTES: readonly ControlRoute[] = [
  {
    method: 'GET',
    path: '',
    operationId: 'getSandboxState',
    summary: 'State: scenario, seed, counts, keys, clock.',
    resolve: getState,
  },
  {
    method: 'POST',
    path: '/reset',
    operationId: 'resetSandbox',
    summary:
      'Back to the start: seeded data, fresh rate-limit windows, clock, startup scenario.',
    resolve: resetSandbox,
  },
  {
    method: 'GET',
    path: '/scenario',
    operationId: 'getScenario',
    summary: 'The active scenario.',
    resolve: getScenario,
  },
  {
    method: 'PUT',
    path: '/scenario',
    operationId: 'useScenario',
    summary: 'Switch scenario: {"name":"rate-limited"}.',
    resolve: putScenario,
  },
  {
    method: 'PUT',
    path: '/scenarios/{name}',
    operationId: 'defineScenario',
    summary:
      'Define a scenario for this session: {"description":"...","errors":{...}} (a scenario file without keys) → 201, or 200 when replaced.',
    resolve: putDefinedScenario,
  },
  {
    method: 'DELETE',
    path: '/scenarios/{name}',
    operationId: 'deleteScenario',
    summary: 'Remove a scenario the session defined; if active, back to the startup one.',
    resolve: deleteDefinedScenario,
  },
  {
    method: 'GET',
    path: '/clock',
    operationId: 'getClock',
    summary: 'The sandbox clock.',
    resolve: getClock,
  },
  {
    method: 'POST',
    path: '/clock',
    operationId: 'setClock',
    summary: 'Move time: {"advanceSeconds":60} or {"now":"2031-01-01T00:00:00Z"}.',
    resolve: setClock,
  },
  {
    method: 'GET',
    path: '/requests',
    operationId: 'listRequests',
    summary: 'The most recent /v1 requests with their status, code, key and scenario.',
    resolve: listRequests,
  },
  {
    method: 'GET',
    path: '/requests/{id}',
    operationId: 'getRequest',
    summary:
      'One journal entry by its request id (the X-Sandbox-Request-Id of its answer), from any session.',
    resolve: getRequest,
  },
  {
    method: 'GET',
    path: '/requests.har',
    operationId: 'exportHar',
    summary: "The session's journal as HAR 1.2, for browser dev tools.",
    resolve: exportHar,
  },
  {
    method: 'GET',
    path: '/export',
    operationId: 'exportSession',
    summary:
      'The session as a petstore-sandbox/session@1 export: pets, scenario, clock, journal.',
    resolve: exportSession,
  },
  {
    method: 'GET',
    path: '/report',
    operationId: 'getReport',
    summary:
      'The report card of the session: what its client does wrong, how often, how to fix it, with example request ids.',
    resolve: getReport,
  },
  {
    method: 'GET',
    path: '/sessions',
    operationId: 'listSessions',
    summary: 'The live sessions: id, created, last used, pets.',
    resolve: listSessions,
  },
  {
    method: 'POST',
    path: '/sessions',
    operationId: 'createSession',
    summary:
      'Start a session (or get the existing one): {"id":"worker-1"} → its keys, e.g. sandbox-free-key.worker-1; {"id","from":<export>} imports one.',
    resolve: createSession,
  },
  {
    method: 'DELETE',
    path: '/sessions/{id}',
    operationId: 'deleteSession',
    summary: 'End a session; its next request starts afresh.',
    resolve: deleteSession,
  },
]

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
