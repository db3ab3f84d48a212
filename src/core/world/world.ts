import type { ApiBase } from '../http/base-url.js'
import { createClock, type Clock, type ClockOptions } from '../data/clock.js'
import { dropsRequest } from '../scenarios/faults.js'
import type { KnownKey, Plan } from '../data/fixtures.js'
import { Journal, type JournalEntry } from '../coach/journal.js'
import type { JournalBudget } from '../coach/journal-budget.js'
import { DefinedScenarios } from '../scenarios/defined-scenarios.js'
import { StorageFullError, type PetQuota } from '../data/pet-quota.js'
import type { Seed } from '../data/pet-seed.js'
import type { PetData } from '../data/pet-data.js'
import type { Pet } from '../common/schemas.js'
import { PetStore, type PetPersistence } from '../data/pet-store.js'
import type { PetCollection } from '../data/pet-seed.js'
import { forgetScenarioWindows, limitWindow, RateLimiter } from './rate-limit.js'
import { ReportCard, type Report } from '../coach/report-card.js'
import type { SandboxState, World } from './sandbox-types.js'
import type { ScenarioRegistry } from '../scenarios/scenario-registry.js'
import type { Latency, Scenario } from '../scenarios/scenarios.js'
import { DEFAULT_SESSION, type SessionEntry } from './sessions.js'

/** The card of a world without requests yet: it is never fed, only read. */
const NO_REQUESTS = new ReportCard()

/**
 * What a world reads of the sandbox that owns it (the SandboxOwner of sandbox-owner.ts),
 * live: each world holds a reference to its owner, not copies of its parts.
 */
export interface WorldHost {
  readonly bases: ApiBase[]
  /** The demo keys as indexed now: loading a scenario may add some. */
  keys(): Map<string, KnownKey>
  /** The plan whose window unauthenticated requests are shown (Free, by default). */
  anonymousPlan(): { name: string; plan: Plan }
  readonly registry: ScenarioRegistry
  readonly latency: Latency | undefined
  readonly clockOptions: ClockOptions | undefined
  readonly journalSize: number
  /** The bytes every world's journal shares. */
  readonly journalBudget: JournalBudget
  /** Every world of the sandbox counts its created pets here. */
  readonly quota: PetQuota
  /** Tells the sandbox's request listeners (`onRequest`) of a world's request (bound: the journal keeps it). */
  readonly forward: (entry: JournalEntry) => void
  /** The startup scenario as it is loaded now. */
  startupScenario(): Scenario
  /** The scenario `useScenario` names (by name, or a definition to load). */
  selectScenario(scenario: string | Scenario): Scenario
  /** The seeded pets of the default data, or of a scenario's own data, made once (bound: the pet store keeps it). */
  readonly seedFor: (scenario?: Scenario) => Seed | Promise<Seed>
  /** The sandbox's seed (option `seed`): with the session and the request's number, it picks the dropped requests. */
  readonly seed: number
  /** The sandbox's count (option `count`): what a scenario's data seeds without `count` or `pets`. */
  readonly count: number
  stateOf(world: SandboxWorld, pets: number): SandboxState
  /** Validates a scenario definition (`source` is named in errors), as files are. */
  parseDefinition(definition: unknown, source: string): Scenario
}

/**
 * A world: the default session's or another session's pets (the shared seed plus its
 * own changes), rate-limit windows and bans, clock, scenario switch and journal. One
 * class for every world: it is what the session registry keeps, what the API reads and
 * what `sandbox.session(id)` returns (the default one behind the sandbox itself).
 *
 * Memory per world is what limits how many sessions a server keeps live
 * (docs/performance.md), so this is a class of fixed shape: its methods live once on
 * the prototype, and what a world may never use (its own collection, the pets of data
 * scenarios) is made on first use.
 */
export class SandboxWorld implements SessionEntry, World {
  lastUsedAt: number
  /**
   * The id of the latest /v1 request that reached this world: one with a higher id was
   * sent after every answer recorded so far (the report card tells retries from requests
   * already in flight by it).
   */
  lastArrived = 0
  readonly clock: Clock
  readonly limiter = new RateLimiter()
  /** Its /v1 requests that reached the drop point since start or reset (docs/faults.md). */
  #requests = 0
  readonly journal: Journal
  /** The session the API journals its requests under; none for the default one. */
  readonly sessionId: string | undefined
  readonly #host: WorldHost
  #active: Scenario
  readonly #pets: PetStore
  #db: { pets: PetCollection } | undefined
  /** Its pets under each scenario that brings its own data, once a request used one. */
  #scenarioPets: Map<string, PetStore> | undefined
  /** Made at the world's first request (docs/report-card.md). */
  #card: ReportCard | undefined
  /** Sandbox time the report card counts from: the world's start or last reset. */
  #since: number
  /** The scenarios it defined at run time (none until it defines one). */
  #defined: DefinedScenarios | undefined

  constructor(
    readonly id: string,
    readonly createdAt: number,
    host: WorldHost,
    persistence?: PetPersistence,
  ) {
    this.lastUsedAt = createdAt
    this.sessionId = id === DEFAULT_SESSION ? undefined : id
    this.#host = host
    this.clock = createClock(host.clockOptions)
    this.#since = this.clock.now()
    this.journal = new Journal(host.journalSize, host.forward, host.journalBudget)
    this.#active = host.startupScenario()
    // The seed of the default data: seedFor with no scenario (no closure a world).
    this.#pets = new PetStore({
      seed: host.seedFor,
      quota: host.quota,
      persistence,
      // The default world takes the seed's own collection: no copy for its db.pets.
      claims: id === DEFAULT_SESSION,
    })
  }

  // What every world shares, read through to the sandbox.
  get bases(): ApiBase[] {
    return this.#host.bases
  }
  get keys(): Map<string, KnownKey> {
    return this.#host.keys()
  }
  get anonymousPlan(): { name: string; plan: Plan } {
    return this.#host.anonymousPlan()
  }
  get registry(): ScenarioRegistry {
    return this.#host.registry
  }
  get latency(): Latency | undefined {
    return this.#host.latency
  }

  /** The world's own pets (its default data). */
  get pets(): PetStore {
    return this.#pets
  }

  /**
   * Records a request this world answered (or refused, or an override answered): the
   * journal entry under its request id. Where the world keeps what it learns of each
   * request (the journal; the report card's counters) is here, once.
   */
  record(entry: JournalEntry, body?: Uint8Array, request?: Request): void {
    this.journal.add(entry)
    // The scenario the request ran under, by the name its entry keeps.
    const scenario = this.findScenario(entry.scenario) ?? this.#active
    const { key } = entry
    // The rate-limit window it counted in: the card judges retries per window, as the
    // limiter judges Retry-After.
    const window =
      key === undefined ? undefined : limitWindow(key, scenario, this.#active.name)
    this.#card ??= new ReportCard()
    this.#card.observe(entry, {
      scenario,
      clock: this.clock,
      body,
      window,
      headers: request?.headers,
      issued: this.lastArrived,
    })
  }

  /** The report card of this world's requests since it started or was reset. */
  report(): Report {
    const since = new Date(this.#since).toISOString()
    const card = this.#card ?? NO_REQUESTS
    return card.report(this.id, since, this.clock.state().frozen)
  }

  activeScenario(): Scenario {
    return this.#active
  }

  /** A scenario by name as this world sees it: one it defined at run time, or the sandbox's. */
  findScenario(name: string): Scenario | undefined {
    const own = this.#defined?.get(name)
    if (own) return own
    const { registry } = this.#host
    return registry.has(name) ? registry.get(name) : undefined
  }

  /**
   * Why `name` is no scenario of this world, and which are: the loaded ones, then those it
   * defined at run time or how to define one (the text of every 400 `unknown_scenario`).
   */
  unknownScenario(name: string): string {
    const { registry } = this.#host
    const own = this.definedScenarios().map((scenario) => scenario.name)
    const where =
      this.sessionId === undefined ? 'the default session' : `session ${this.sessionId}`
    const defined =
      own.length > 0
        ? `${where} also defines ${own.join(', ')}.`
        : `Or define one for ${where} with PUT /__sandbox/scenarios/{name} (it lives in the session that defines it).`
    return `${registry.unknownReason(name.slice(0, 60))}. ${registry.hint()} ${defined}`
  }

  /** The scenarios it defined at run time, oldest first. */
  definedScenarios(): Scenario[] {
    return this.#defined?.list() ?? []
  }

  /**
   * Defines (or replaces) a scenario for this world only (PUT /__sandbox/scenarios/{name}):
   * validated as a scenario file, without `keys` (keys are the sandbox's) and under a
   * name no loaded scenario has. Throws a SandboxError (INVALID_SCENARIO) naming the
   * field. Replacing the active one switches to the new definition at once.
   */
  defineScenario(
    definition: Scenario,
    source = 'defineScenario()',
  ): { scenario: Scenario; created: boolean } {
    this.#defined ??= new DefinedScenarios(this.#host)
    const defined = this.#defined.define(definition, source)
    // Its pets start again from the new data; the active one switches to it.
    this.dropScenarioPets(defined.scenario.name)
    if (this.#active.name === defined.scenario.name) this.#active = defined.scenario
    return defined
  }

  /** Defines an import's scenarios, which {@link checkImport} has passed as a whole. */
  defineImported(scenarios: readonly Scenario[], source: string): void {
    for (const definition of scenarios) {
      this.#defined ??= new DefinedScenarios(this.#host)
      const { scenario } = this.#defined.define(definition, source, true)
      this.dropScenarioPets(scenario.name)
      if (this.#active.name === scenario.name) this.#active = scenario
    }
  }

  /**
   * Throws, before an import changes anything, what defining its scenarios and taking
   * its pets would throw: a definition refused (INVALID_SCENARIO), one scenario too many,
   * or its pets and what its scenarios seed past the sandbox's pet limits (a
   * StorageFullError, answered 507 as a create's).
   */
  checkImport(
    pets: readonly Pet[],
    scenarios: readonly Scenario[],
    source: string,
  ): void {
    const seeded =
      scenarios.length === 0
        ? 0
        : (this.#defined ??= new DefinedScenarios(this.#host)).checkImport(
            scenarios,
            source,
          )
    const refusal = this.pets.importRefusal(pets, seeded)
    if (refusal) throw new StorageFullError(refusal)
  }

  /** Removes a scenario it defined at run time; if it was active, back to the startup one. */
  removeScenario(name: string): boolean {
    if (!this.#defined?.remove(name)) return false
    forgetScenarioWindows(this.limiter, name)
    this.dropScenarioPets(name)
    if (this.#active.name === name) this.#active = this.#host.startupScenario()
    return true
  }

  /**
   * Counts a /v1 request whose scenario is chosen and says whether the scenario's
   * `faults` drop it: every request counts, so request 7 of a session is the same one
   * whichever scenario the ones before it had.
   */
  dropsNext(scenario: Scenario, operation: string | undefined): boolean {
    const requestNumber = ++this.#requests
    if (!scenario.faults) return false
    return dropsRequest(scenario, operation, {
      seed: this.#host.seed,
      session: this.id,
      requestNumber,
    })
  }

  /** The pets a request under this scenario reads: the world's, or the scenario's own data. */
  dataset(scenario: Scenario): PetData | Promise<PetData> {
    if (!scenario.data) return this.#pets
    this.#scenarioPets ??= new Map()
    let data = this.#scenarioPets.get(scenario.name)
    if (!data) {
      const host = this.#host
      data = new PetStore({ seed: () => host.seedFor(scenario), quota: host.quota })
      this.#scenarioPets.set(scenario.name, data)
    }
    const store = data
    return store.loading ? store.ready.then(() => store) : store
  }

  /**
   * Its pets as an @msw/data collection, right at the first read once `ready`; before
   * (or while a reset or reload is under way) a read throws a SandboxError naming the
   * `ready` to await, never an empty list (PetStore#guarded).
   */
  get db(): { pets: PetCollection } {
    if (this.#db) return this.#db
    const world =
      this.sessionId === undefined ? 'sandbox' : `sandbox.session('${this.sessionId}')`
    return (this.#db = { pets: this.#pets.guarded(world) })
  }

  get scenario(): Scenario {
    return this.#active
  }

  /** Whether a load of its pets is queued or running (requests then wait for `ready`). */
  get loading(): boolean {
    return this.#pets.loading
  }

  get ready(): Promise<void> {
    return this.#pets.ready
  }

  reset(): Promise<void> {
    this.limiter.reset()
    this.#requests = 0
    this.clock.reset()
    this.journal.clear()
    this.#card = undefined
    this.#since = this.clock.now()
    this.#active = this.#host.startupScenario()
    this.dropScenarioPets()
    this.#defined?.clear()
    return this.#pets.reset()
  }

  useScenario(scenario: string | Scenario): void {
    const own = typeof scenario === 'string' ? this.#defined?.get(scenario) : undefined
    this.#active = own ?? this.#host.selectScenario(scenario)
  }

  /** Switches to this scenario (already selected) when it is the active one's name: it was reloaded. */
  refreshScenario(scenario: Scenario): void {
    if (this.#active.name === scenario.name) this.#active = scenario
  }

  state(): SandboxState {
    return this.#host.stateOf(this, this.petCount())
  }

  /** What `state().counts.pets` says, without building the rest (a list of 10,000 sessions reads it). */
  petCount(): number {
    return this.#pets.count()
  }

  /** Drops the pets of data scenarios (one, or all): their created pets stop counting. */
  dropScenarioPets(name?: string): void {
    if (!this.#scenarioPets) return
    for (const [key, data] of this.#scenarioPets) {
      if (name !== undefined && key !== name) continue
      data.release()
      this.#scenarioPets.delete(key)
    }
  }

  /** The session is gone (expired, evicted or ended): its pets and journal give back what they held. */
  dispose(): void {
    this.#pets.release()
    this.dropScenarioPets()
    this.#defined?.clear()
    this.journal.clear()
  }
}
