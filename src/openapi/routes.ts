/** Where a route lives: the API under its base (`/v1`), or the control API (`/__sandbox`). */
export type RouteScope = 'api' | 'control'

/** One operation of the sandbox, as the route table declares it. */
export interface RouteDescriptor {
  scope: RouteScope
  method: 'GET' | 'POST' | 'PUT' | 'DELETE'
  /** Relative to the scope's base; `''` is the base itself. */
  path: string
  operationId: string
  summary: string
  deprecated?: boolean
}

/**
 * The sandbox's operations, each once, in the shape of the core's route table
 * (`src/core/routes.ts`), which this list mirrors: the document's `paths` are built from it.
 */
export const ROUTES: readonly RouteDescriptor[] = [
  {
    scope: 'api',
    method: 'GET',
    path: '/pets',
    operationId: 'listPets',
    summary: 'List animals',
  },
  {
    scope: 'api',
    method: 'POST',
    path: '/pets',
    operationId: 'createPet',
    summary: 'Add an animal',
  },
  {
    scope: 'api',
    method: 'GET',
    path: '/pets/{petId}',
    operationId: 'getPet',
    summary: 'Get an animal',
    deprecated: true,
  },
  {
    scope: 'api',
    method: 'GET',
    path: '/store/orders',
    operationId: 'listOrders',
    summary: 'List store orders (not modelled: 501)',
  },
  {
    scope: 'control',
    method: 'GET',
    path: '',
    operationId: 'getSandboxState',
    summary: 'Sandbox state',
  },
  {
    scope: 'control',
    method: 'POST',
    path: '/reset',
    operationId: 'resetSandbox',
    summary: 'Back to the start',
  },
  {
    scope: 'control',
    method: 'GET',
    path: '/scenario',
    operationId: 'getScenario',
    summary: 'Active scenario',
  },
  {
    scope: 'control',
    method: 'PUT',
    path: '/scenario',
    operationId: 'useScenario',
    summary: 'Switch the scenario',
  },
  {
    scope: 'control',
    method: 'GET',
    path: '/clock',
    operationId: 'getClock',
    summary: 'Sandbox clock',
  },
  {
    scope: 'control',
    method: 'POST',
    path: '/clock',
    operationId: 'setClock',
    summary: 'Set, advance, freeze or reset the clock',
  },
  {
    scope: 'control',
    method: 'GET',
    path: '/requests',
    operationId: 'listRequests',
    summary: 'Most recent requests, newest first',
  },
]
