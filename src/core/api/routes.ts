import { fail } from '../http/api-errors.js'
import { listEndpoints, type Answer, type RouteBase } from '../http/router.js'
import type { Operation } from '../scenarios/scenarios.js'
import type { ApiCall } from './api-call.js'
import { createPet, getPet, listPets } from './pet-operations.js'

/**
 * The v1 API's route table: every operation once. Routing, `Allow`, the 404 hints, the
 * journal's operation names, the landing page, the banner and the OpenAPI `paths` read it.
 * @see docs/design.md
 */

export interface ApiRoute extends RouteBase {
  /** The seed's operation names; `listOrders` is mentioned by the seed, not modelled. */
  operationId: Operation | 'listOrders'
  /** Whether the sandbox models it (false: 501, its shape is not published). */
  modelled: boolean
  resolve(call: ApiCall): Answer | Promise<Answer>
}

/** Where the v1 API's operations live below each base address (`/v1`). */
export const API_ROUTES: readonly ApiRoute[] = [
  {
    method: 'GET',
    path: '/pets',
    operationId: 'listPets',
    modelled: true,
    resolve: listPets,
  },
  {
    method: 'POST',
    path: '/pets',
    operationId: 'createPet',
    modelled: true,
    resolve: createPet,
  },
  {
    method: 'GET',
    path: '/pets/{petId}',
    operationId: 'getPet',
    deprecated: true,
    modelled: true,
    resolve: getPet,
  },
  {
    method: 'GET',
    path: '/store/orders',
    operationId: 'listOrders',
    modelled: false,
    resolve: listOrders,
  },
]

/** `GET /store/orders`: mentioned by the seed, its shape not shown, so not modelled. */
export function listOrders({ apiBase }: ApiCall): Answer {
  return fail(
    'not_implemented',
    `GET ${apiBase}/store/orders is mentioned by the API but its shape is not published, so the sandbox does not model it. Use ${listEndpoints(API_ROUTES, apiBase, (route) => route.modelled)}.`,
  )
}
