import createClient from 'openapi-fetch'
import type { components, paths } from './schema.js'

export type Pet = components['schemas']['Pet']
export type NewPet = components['schemas']['NewPet']
export type ApiError = components['schemas']['Error']

/** A client for the Pet Adoption API, typed from its OpenAPI document. */
export function createPetClient(baseUrl: string, apiKey: string) {
  return createClient<paths>({ baseUrl, headers: { Authorization: `Bearer ${apiKey}` } })
}
