import type { KnownKey } from '../data/fixtures.js'
import type { PetData } from '../data/pet-data.js'
import type { Scenario } from '../scenarios/scenarios.js'
import type { SandboxWorld } from '../world/world.js'

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
