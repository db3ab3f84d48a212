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
    resolve: getState,
  },
  {
    method: 'POST',
    path: '/reset',
    operationId: 'resetSandbox',
    resolve: resetSandbox,
  },
  {
    method: 'GET',
    path: '/scenario',
    operationId: 'getScenario',
    resolve: getScenario,
  },
  {
    method: 'PUT',
    path: '/scenario',
    operationId: 'useScenario',
    resolve: putScenario,
  },
  {
    method: 'PUT',
    path: '/scenarios/{name}',
    operationId: 'defineScenario',
    resolve: putDefinedScenario,
  },
  {
    method: 'DELETE',
    path: '/scenarios/{name}',
    operationId: 'deleteScenario',
    resolve: deleteDefinedScenario,
  },
  {
    method: 'GET',
    path: '/clock',
    operationId: 'getClock',
    resolve: getClock,
  },
  {
    method: 'POST',
    path: '/clock',
    operationId: 'setClock',
    resolve: setClock,
  },
  {
    method: 'GET',
    path: '/requests',
    operationId: 'listRequests',
    resolve: listRequests,
  },
  {
    method: 'GET',
    path: '/requests/{id}',
    operationId: 'getRequest',
    resolve: getRequest,
  },
  {
    method: 'GET',
    path: '/requests.har',
    operationId: 'exportHar',
    resolve: exportHar,
  },
  {
    method: 'GET',
    path: '/export',
    operationId: 'exportSession',
    resolve: exportSession,
  },
  {
    method: 'GET',
    path: '/report',
    operationId: 'getReport',
    resolve: getReport,
  },
  {
    method: 'GET',
    path: '/sessions',
    operationId: 'listSessions',
    resolve: listSessions,
  },
  {
    method: 'POST',
    path: '/sessions',
    operationId: 'createSession',
    resolve: createSession,
  },
  {
    method: 'DELETE',
    path: '/sessions/{id}',
    operationId: 'deleteSession',
    resolve: deleteSession,
  },
]
