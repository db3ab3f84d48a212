import createClient from 'openapi-fetch'
import type { components, paths } from './schema.js'
import type {
  components as controlComponents,
  paths as controlPaths,
} from './control-schema.js'

export type Pet = components['schemas']['Pet']
export type NewPet = components['schemas']['NewPet']
export type ApiError = components['schemas']['Error']
export type SandboxState = controlComponents['schemas']['SandboxState']

/**
 * A client for the Pet Adoption API, typed from its OpenAPI document. `baseUrl` is the
 * API's base address, ending in /v1 (`http://127.0.0.1:4010/v1`).
 */
export function createPetClient(baseUrl: string, apiKey: string) {
  return createClient<paths>({ baseUrl, headers: { Authorization: `Bearer ${apiKey}` } })
}

/**
 * A client for the sandbox's control API, typed from its own OpenAPI document. Its
 * paths are the full /__sandbox/... paths, so `origin` is the server's root
 * (`http://127.0.0.1:4010`), not /v1. The token is needed only beyond loopback.
 */
export function createControlClient(origin: string, controlToken?: string) {
  return createClient<controlPaths>({
    baseUrl: origin,
    headers: controlToken ? { 'X-Sandbox-Control-Token': controlToken } : {},
  })
}
