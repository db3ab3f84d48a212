import type { ApiContext } from './api.js'
import { createClock, type Clock, type ClockOptions } from './clock.js'
import { createDataset, type Dataset, type PetData } from './dataset.js'
import { Journal, type JournalEntry } from './journal.js'
import type { JournalBudget } from './journal-budget.js'
import { OverlayDataset, type SharedSeed } from './overlay-dataset.js'
import type { PetQuota } from './pet-quota.js'
import { RateLimiter } from './rate-limit.js'
import type { SandboxSession, SandboxState } from './sandbox.js'
import type { Scenario } from './scenarios.js'
import type { SessionEntry } from './sessions.js'

/**
 * What a session reads of its sandbox, live. One object for every session of a
 * sandbox: each holds a reference to it, not copies of its parts.
 */
export interface SessionHost extends Pick<ApiContext, 'bases' | 'registry' | 'latency'> {
  /** The demo keys as indexed now: loading a scenario may add some. */
  keys(): ApiContext['keys']
  anonymousPlan(): ApiContext['anonymousPlan']
  readonly clockOptions: ClockOptions | undefined
  readonly journalSize: number
  /** The bytes every world's journal shares. */
  readonly journalBudget: JournalBudget
  /** Every world of the sandbox counts its created pets here. */
  readonly quota: PetQuota
  /** Tells the sandbox's request listeners (`onRequest`) of a session's request. */
  forward(entry: JournalEntry): void
  /** The startup scenario as it is loaded now. */
  startupScenario(): Scenario
  /** The scenario `useScenario` names (by name, or a definition to load). */
  selectScenario(scenario: string | Scenario): Scenario
  /** The seeded pets of the default data, or of a scenario's own data, made once. */
  seedFor(scenario?: Scenario): SharedSeed
  stateOf(world: SandboxSession, pets: number): SandboxState
}

/** A world whose data is in place: every session's, until its `db` is read. */
const SETTLED: Promise<void> = Promise.resolve()

/**
 * A session's world: its own clock, rate limiter, journal, scenario switch and pets. One
 * object is what the registry keeps, what the API reads (its context) and what
 * `sandbox.session(id)` returns.
 *
 * Memory per session is what limits how many a server keeps live (README.md#performance),
 * so this is a class of fixed shape: its methods live once on the prototype, not as some
 * twenty closures a session, and what a session may never use (the copy `db` makes, the
 * pets of data scenarios) is made on first use.
 */
export class SessionWorld implements SessionEntry, SandboxSession, ApiContext {
  lastUsedAt: number
  readonly clock: Clock
  readonly limiter = new RateLimiter()
  readonly journal: Journal
  readonly #host: SessionHost
  #active: Scenario
  /** Its pets: the shared seed plus the ones it created. */
  #pets: OverlayDataset
  /** Its pets copied into a collection of its own, once `db` was read; requests use it from then on. */
  #copied: Dataset | undefined
  /** Its pets under each scenario that brings its own data, once a request used one. */
  #scenarioPets: Map<string, OverlayDataset> | undefined

  constructor(
    readonly id: string,
    readonly createdAt: number,
    host: SessionHost,
  ) {
    this.lastUsedAt = createdAt
    this.#host = host
    this.clock = createClock(host.clockOptions)
    this.journal = new Journal(host.journalSize, host.forward, host.journalBudget)
    this.#active = host.startupScenario()
    this.#pets = new OverlayDataset(host.seedFor(), host.quota)
  }

  // What every session shares, read through to the sandbox.
  get bases() {
    return this.#host.bases
  }
  get keys() {
    return this.#host.keys()
  }
  get anonymousPlan() {
    return this.#host.anonymousPlan()
  }
  get registry() {
    return this.#host.registry
  }
  get latency() {
    return this.#host.latency
  }

  /** The session the API journals its requests under. */
  get session() {
    return this.id
  }

  activeScenario(): Scenario {
    return this.#active
  }

  dataset(scenario: Scenario): PetData {
    if (!scenario.data) return this.#copied ?? this.#pets
    this.#scenarioPets ??= new Map()
    let data = this.#scenarioPets.get(scenario.name)
    if (!data) {
      data = new OverlayDataset(this.#host.seedFor(scenario), this.#host.quota)
      this.#scenarioPets.set(scenario.name, data)
    }
    return data
  }

  get db() {
    if (!this.#copied) {
      const own = this.#pets
      const seeded = this.#host.seedFor().pets
      // Its created pets were counted by the overlay, which keeps them counted.
      this.#copied = createDataset(
        () => [...seeded, ...own.created()],
        undefined,
        this.#host.quota,
      )
    }
    return { pets: this.#copied.pets }
  }

  get scenario(): Scenario {
    return this.#active
  }

  get ready(): Promise<void> {
    return this.#copied ? this.#copied.ready : SETTLED
  }

  reset(): Promise<void> {
    this.limiter.reset()
    this.clock.reset()
    this.journal.clear()
    this.#active = this.#host.startupScenario()
    this.#release()
    this.#pets = new OverlayDataset(this.#host.seedFor(), this.#host.quota)
    this.#copied = undefined
    this.#scenarioPets = undefined
    return SETTLED
  }

  useScenario(scenario: string | Scenario): void {
    this.#active = this.#host.selectScenario(scenario)
  }

  state(): SandboxState {
    return this.#host.stateOf(this, this.petCount())
  }

  /** What `state().counts.pets` says, without building the rest (a list of 10,000 sessions reads it). */
  petCount(): number {
    return (this.#copied ?? this.#pets).count()
  }

  /** The session is gone (expired, evicted or ended): its journal gives its bytes back. */
  dispose(): void {
    this.#release()
    this.journal.clear()
  }

  /** Gives the world's created pets back to the quota. */
  #release() {
    this.#pets.release()
    this.#copied?.release()
    for (const data of this.#scenarioPets?.values() ?? []) data.release()
  }
}
