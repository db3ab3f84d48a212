import type { RequestHandler } from 'msw'
import { SandboxError } from './common/errors.js'
import type { JournalEntry } from './coach/journal.js'
import type { Fixtures } from './data/fixtures.js'
import type { MovedPet } from './data/pet-data.js'
import { STATE_FORMAT, type PersistedState } from './data/store.js'
import { createSandboxHandlers } from './pipeline/handlers.js'
import { PORT, type Port } from './pipeline/sandbox-port.js'
import { parsePersistedState } from './sandbox-options.js'
import type { ScenarioRegistry } from './scenarios/scenario-registry.js'
import type { Scenario } from './scenarios/scenarios.js'
import type { Sandbox, SessionInfo } from './world/sandbox-types.js'
import type { SessionCarrying } from './world/session-carry.js'
import { DEFAULT_SESSION, isSessionId, type SessionRegistry } from './world/sessions.js'
import { SandboxWorld, type WorldHost } from './world/world.js'
import type { PetPersistence } from './data/pet-store.js'

/**
 * What the public sandbox asks of the SandboxOwner (sandbox-owner.ts) beyond what its
 * default world reads of it: the sessions, the sandbox-wide scenarios and fixtures,
 * listeners, carrying, the port.
 */
export interface SandboxHost extends WorldHost {
  readonly overrides: readonly RequestHandler[]
  readonly sessionCarrying: SessionCarrying
  readonly port: Port
  /** The world of a session id, made if it is not live (the default one for `default`). */
  worldOf(id: string): { world: SandboxWorld; created: boolean }
  /** The live sessions, the default one aside. */
  readonly sessions: SessionRegistry<SandboxWorld>
  addScenario(scenario: Scenario): void
  reloadFixtures(fixtures: Fixtures | undefined): Promise<MovedPet[]>
  onRequest(listener: (entry: JournalEntry) => void): () => void
  close(): Promise<void>
}

/**
 * The public sandbox: the default world (its pets, clock, journal, scenario, report) plus
 * what is the sandbox's as a whole (sessions, scenarios, fixtures, handlers, carrying),
 * which its owner keeps. One object, not a copy of the world's members.
 */
export class DefaultSandbox extends SandboxWorld implements Sandbox {
  readonly #owner: SandboxHost
  readonly handlers: RequestHandler[]

  constructor(owner: SandboxHost, persistence?: PetPersistence) {
    super(DEFAULT_SESSION, 0, owner, persistence)
    this.#owner = owner
    this.handlers = createSandboxHandlers(this)
  }

  /** The sandbox's port (sandbox-port.ts `portOf`): not on the public type. */
  get [PORT](): Port {
    return this.#owner.port
  }

  get overrides(): readonly RequestHandler[] {
    return this.#owner.overrides
  }
  get scenarios(): ScenarioRegistry {
    return this.registry
  }
  get startupScenario(): string {
    return this.#owner.startupScenario().name
  }
  get seed(): number {
    return this.#owner.seed
  }
  get count(): number {
    return this.#owner.count
  }

  session(id: string): SandboxWorld {
    if (!isSessionId(id)) {
      throw SandboxError.for(
        'INVALID_OPTION',
        `open the session ${JSON.stringify(id)}`,
        'a session id is 1 to 64 letters, digits, "-" or "_"',
        'Use an id such as "worker-1".',
      )
    }
    const { world } = this.#owner.worldOf(id)
    // Taken in code, its pets are used as a collection: made now, so that `db.pets` is
    // there once its `ready` resolves.
    void world.pets.want().catch(() => {})
    return world
  }

  sessions(): SessionInfo[] {
    return this.#owner.sessions.list().map((world) => ({
      id: world.id,
      createdAt: new Date(world.createdAt).toISOString(),
      lastUsedAt: new Date(world.lastUsedAt).toISOString(),
      pets: world.petCount(),
    }))
  }

  endSession(id: string): boolean {
    return this.#owner.sessions.delete(id)
  }

  addScenario(scenario: Scenario): void {
    this.#owner.addScenario(scenario)
  }

  reloadFixtures(fixtures: Fixtures | undefined): Promise<MovedPet[]> {
    return this.#owner.reloadFixtures(fixtures)
  }

  onRequest(listener: (entry: JournalEntry) => void): () => void {
    return this.#owner.onRequest(listener)
  }

  exportState(): PersistedState {
    return {
      format: STATE_FORMAT,
      seed: this.seed,
      count: this.count,
      pets: this.pets.snapshot(),
    }
  }

  async importState(state: unknown, source = 'importState()'): Promise<void> {
    await this.pets.restore(parsePersistedState(state, source).pets)
  }

  exportSession(id?: string): ReturnType<SessionCarrying['exportSession']> {
    return this.#owner.sessionCarrying.exportSession(id)
  }

  importSession(
    id: string,
    data: unknown,
    source?: string,
  ): ReturnType<SessionCarrying['importSession']> {
    return this.#owner.sessionCarrying.importSession(id, data, source)
  }

  exportHar(id?: string, origin?: string): ReturnType<SessionCarrying['exportHar']> {
    return this.#owner.sessionCarrying.exportHar(id, origin)
  }

  close(): Promise<void> {
    return this.#owner.close()
  }
}
