import type { RouteBase } from '../http/router.js'
import type { Answer } from '../http/router.js'
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
} from './control-operations.js'
import { exportHar, exportSession } from './carry-operations.js'
import type { ControlCall } from './control-call.js'
import { deleteDefinedScenario, putDefinedScenario } from './scenario-operations.js'

export { CONTROL_PATH } from './control-call.js'

/**
 * The control API's route table (`/__sandbox`), in every runtime: routing, `Allow`, the
 * 404 hints, the landing page, the banner and the control OpenAPI `paths` read it.
 * @see docs/design.md
 */

export interface ControlRoute extends RouteBase {
  resolve(call: ControlCall): Answer | Promise<Answer>
}

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
