import type { RequestHandler } from 'msw'
import { createKeyIndex, type KnownKey } from './api/auth.js'
import { JournalBudget } from './coach/journal-budget.js'
import type { JournalEntry } from './coach/journal.js'
import { DEFAULT_MAX_JOURNAL_BYTES } from './common/limits.js'
import { hasOwnName } from './common/own-names.js'
import type { Steps } from './common/slices.js'
import type { ClockOptions } from './data/clock.js'
import {
  resolveFixtures,
  type Fixtures,
  type PetFixture,
  type Plan,
} from './data/fixtures.js'
import type { MovedPet } from './data/pet-data.js'
import { createPetQuota, type PetQuota } from './data/pet-quota.js'
import { createSeed, type Seed } from './data/pet-seed.js'
import { generatePetsSteps } from './data/seed.js'
import { DefaultSandbox, type SandboxHost } from './default-sandbox.js'
import { parseBaseUrls, type ApiBase } from './http/base-url.js'
import { Pipeline, type PipelineHost } from './pipeline/pipeline.js'
import {
  checkOverrides,
  DEFAULT_COUNT,
  DEFAULT_JOURNAL_SIZE,
  DEFAULT_SEED,
} from './sandbox-options.js'
import type { Latency, Scenario } from './scenarios/scenarios.js'
import { ScenarioRegistry } from './scenarios/scenario-registry.js'
import { BUILT_IN_SCENARIOS, parseScenario } from './scenarios/scenarios.js'
import type { SandboxOptions, SandboxState } from './world/sandbox-types.js'
import {
  createSessionCarrying,
  type CarrySandbox,
  type CarryingInternals,
  type SessionCarrying,
} from './world/session-carry.js'
import {
  DEFAULT_MAX_SESSIONS,
  DEFAULT_SESSION,
  DEFAULT_SESSION_TTL_SECONDS,
  idleTime,
  SessionRegistry,
} from './world/sessions.js'
import { SandboxWorld } from './world/world.js'

/** Where a seed is kept: by name for loaded scenarios, by definition for a session's. */
interface SeedShelf<Key> {
  get(key: Key): Seed | Promise<Seed> | undefined
  set(key: Key, seed: Seed | Promise<Seed>): unknown
}

/**
 * The one owner of a sandbox's state: its options as checked, fixtures and demo keys,
 * scenarios, the user's handlers, the seeds every world shares, the request-id counter,
 * the request listeners, the session registry, and the default world (the public
 * sandbox). Worlds, the pipeline and session carrying get this object (each reads it
 * through the narrow interface it declares: WorldHost, SandboxHost, PipelineHost).
 */
export class SandboxOwner implements SandboxHost, PipelineHost, CarrySandbox {
  readonly seed: number
  readonly count: number
  readonly maxPets: number | undefined
  readonly bases: ApiBase[]
  /** The origin `exportHar` puts the journal's paths on when the caller names none. */
  readonly origin: string
  readonly registry = new ScenarioRegistry(BUILT_IN_SCENARIOS)
  readonly latency: Latency | undefined
  readonly clockOptions: ClockOptions | undefined
  readonly journalSize: number
  /** One byte budget for the journals of every world (docs/sessions.md). */
  readonly journalBudget: JournalBudget
  /** Every world of the sandbox counts its created pets here. */
  readonly quota: PetQuota
  readonly sessions: SessionRegistry<SandboxWorld>
  readonly port: Pipeline
  /** The default world, which is the public sandbox. */
  readonly main: DefaultSandbox
  readonly carrying: CarryingInternals
  readonly sessionCarrying: SessionCarrying
  readonly #options: SandboxOptions
  #fixtures: ReturnType<typeof resolveFixtures>
  #keys: Map<string, KnownKey>
  #overrides: readonly RequestHandler[]
  #startup: Scenario
  /** One counter of request ids for every world (X-Sandbox-Request-Id). */
  #lastRequestId = 0
  /** Every world's journal tells these listeners (onRequest). */
  readonly #listeners = new Set<(entry: JournalEntry) => void>()
  /** The seeded pets of the default data ('') and of each data scenario, made once for every world. */
  readonly #seeds = new Map<string, Seed | Promise<Seed>>()
  /** Those of scenarios a session defined at run time: theirs alone, gone with them. */
  readonly #definedSeeds = new WeakMap<Scenario, Seed | Promise<Seed>>()

  constructor(options: SandboxOptions) {
    this.#options = options
    this.seed = options.seed ?? DEFAULT_SEED
    this.count = options.count ?? DEFAULT_COUNT
    this.maxPets = options.maxPets
    this.#fixtures = resolveFixtures(options.fixtures, undefined, this.maxPets)
    this.bases = parseBaseUrls(options.baseUrl)
    this.origin =
      this.bases.find((base) => base.origin !== undefined)?.origin ?? 'http://localhost'
    this.#startup = this.#loadScenarios(options)
    this.#keys = this.#indexKeys()
    this.#overrides = checkOverrides(options.handlers ?? [], 'options.handlers')
    this.latency = options.latency
    this.clockOptions = options.clock
    this.journalSize = options.journalSize ?? DEFAULT_JOURNAL_SIZE
    this.journalBudget = new JournalBudget(
      options.maxJournalBytes ?? DEFAULT_MAX_JOURNAL_BYTES,
    )
    this.quota = createPetQuota({
      maxPets: this.maxPets,
      maxTotalPets: options.maxTotalPets,
    })
    this.sessions = new SessionRegistry<SandboxWorld>(
      (id, now) => new SandboxWorld(id, now, this),
      // Real time (or the idleNow option), never a sandbox clock: moving the default
      // session's clock must end nobody's session.
      idleTime(options.idleNow),
      options.maxSessions ?? DEFAULT_MAX_SESSIONS,
      (options.sessionTtlSeconds ?? DEFAULT_SESSION_TTL_SECONDS) * 1000,
    )
    this.port = new Pipeline(this)
    const persistence = options.store
      ? { store: options.store, seed: this.seed, count: this.count }
      : undefined
    this.main = new DefaultSandbox(this, persistence)
    const { internals, ...carrying } = createSessionCarrying(this)
    this.carrying = internals
    this.sessionCarrying = carrying
  }

  /** The demo keys as indexed now: loading a scenario may add some. */
  keys(): Map<string, KnownKey> {
    return this.#keys
  }

  /** The plan whose window unauthenticated requests are shown (Free, by default). */
  anonymousPlan(): { name: string; plan: Plan } {
    const { plans } = this.#fixtures.apiKeys
    const name = hasOwnName(plans, 'free') ? 'free' : (Object.keys(plans)[0] as string)
    return { name, plan: plans[name] as Plan }
  }

  readonly forward = (entry: JournalEntry): void => {
    for (const listener of this.#listeners) listener(entry)
  }

  onRequest(listener: (entry: JournalEntry) => void): () => void {
    this.#listeners.add(listener)
    return () => this.#listeners.delete(listener)
  }

  /** The startup scenario as it is loaded now (by name: one reloaded from its file, --watch, stays reloaded). */
  startupScenario(): Scenario {
    const startup = this.#startup
    return this.registry.has(startup.name) ? this.registry.get(startup.name) : startup
  }

  /** The scenario `useScenario` names (by name, or a definition to load). */
  selectScenario(scenario: string | Scenario): Scenario {
    if (typeof scenario === 'string') return this.registry.get(scenario)
    const parsed = parseScenario(scenario, 'useScenario()', {
      maxPets: this.maxPets,
      plans: this.#plans(),
    })
    this.registry.add(parsed)
    this.#keys = this.#indexKeys()
    return parsed
  }

  /** Validates a scenario definition (`source` is named in errors), as files are. */
  parseDefinition(definition: unknown, source: string): Scenario {
    return parseScenario(definition, source, {
      maxPets: this.maxPets,
      action: 'define',
      plans: this.#plans(),
      count: this.count,
    })
  }

  /** The seeded pets of the default data, or of a scenario's own data, made once. */
  readonly seedFor = (scenario?: Scenario): Seed | Promise<Seed> => {
    const data = scenario?.data
    if (!data) return this.#seedIn(this.#seeds, '', undefined)
    const defined = scenario as Scenario
    const loaded =
      this.registry.has(defined.name) && this.registry.get(defined.name) === defined
    return loaded
      ? this.#seedIn(this.#seeds, defined.name, data)
      : this.#seedIn(this.#definedSeeds, defined, data)
  }

  stateOf(world: SandboxWorld, pets: number): SandboxState {
    return {
      scenario: { name: world.scenario.name, description: world.scenario.description },
      session: world.id,
      startupScenario: this.#startup.name,
      scenarios: [...this.registry.list(), ...world.definedScenarios()].map(
        ({ name, description }) => ({ name, description }),
      ),
      seed: this.seed,
      count: this.count,
      counts: { pets },
      keys: [...this.#keys.values()].map((entry) => ({
        key: entry.key,
        plan: entry.planName,
        perMinute: entry.plan.perMinute,
        perDay: entry.plan.perDay,
        expired: entry.expired,
        ...(entry.scenario === undefined ? {} : { scenario: entry.scenario }),
      })),
      clock: world.clock.state(),
      baseUrls: this.bases.map((base) => `${base.origin ?? '*'}${base.path}`),
    }
  }

  /** The world of a session id, made if it is not live (the default one for `default`). */
  worldOf(id: string): { world: SandboxWorld; created: boolean } {
    if (id === DEFAULT_SESSION) {
      // Expired sessions end at the next request, whichever session it names.
      this.sessions.sweep()
      return { world: this.main, created: false }
    }
    const { session, created } = this.sessions.use(id)
    return { world: session, created }
  }

  nextRequestId(): number {
    return ++this.#lastRequestId
  }

  get overrides(): readonly RequestHandler[] {
    return this.#overrides
  }

  useOverrides(handlers: readonly RequestHandler[]): void {
    this.#overrides = checkOverrides(handlers, 'useOverrides()')
  }

  addScenario(scenario: Scenario): void {
    const parsed = parseScenario(scenario, 'addScenario()', {
      maxPets: this.maxPets,
      plans: this.#plans(),
    })
    const { registry } = this
    const previous = registry.has(parsed.name) ? registry.get(parsed.name) : undefined
    registry.add(parsed)
    try {
      this.#keys = this.#indexKeys()
    } catch (error) {
      if (previous) registry.add(previous)
      throw error
    }
    // The default world's pets of that scenario start again from its new data;
    // sessions keep theirs until they reset (as before).
    this.main.dropScenarioPets(parsed.name)
    this.#seeds.delete(parsed.name)
    this.main.refreshScenario(parsed)
  }

  reloadFixtures(next: Fixtures | undefined): Promise<MovedPet[]> {
    this.#fixtures = resolveFixtures(next, undefined, this.maxPets)
    this.#keys = this.#indexKeys()
    this.main.dropScenarioPets()
    this.#seeds.clear()
    // Requests wait for the reload as for a reset: none sees the data half loaded.
    return this.main.pets.reload()
  }

  async close(): Promise<void> {
    await this.#options.store?.close?.()
  }

  /** Loads the option's scenarios and returns the startup one. */
  #loadScenarios(options: SandboxOptions): Scenario {
    const { registry, maxPets } = this
    for (const [index, scenario] of (options.scenarios ?? []).entries()) {
      registry.load(
        parseScenario(scenario, `options.scenarios[${index}]`, {
          maxPets,
          plans: this.#plans(),
        }),
      )
    }
    if (typeof options.scenario === 'object' && options.scenario !== null) {
      const startup = parseScenario(options.scenario, 'options.scenario', {
        maxPets,
        plans: this.#plans(),
      })
      registry.load(startup)
      return startup
    }
    return registry.get(options.scenario ?? 'default', 'select the startup scenario')
  }

  /** The plans of the fixtures loaded now (a reload changes them): a scenario's rateLimits.plans must name them. */
  #plans(): string[] {
    return Object.keys(this.#fixtures.apiKeys.plans)
  }

  #indexKeys(): Map<string, KnownKey> {
    return createKeyIndex(this.#fixtures.apiKeys, this.registry.list(), (scenario) =>
      BUILT_IN_SCENARIOS.includes(scenario as Scenario),
    )
  }

  /** The steps that make the pets of a data scenario (or of the sandbox's own data). */
  *#petsOf(data: Scenario['data']): Steps<PetFixture[]> {
    const given = data ? data.pets : this.#fixtures.pets
    if (given) return given
    return yield* generatePetsSteps(
      data?.seed ?? this.seed,
      (data ? data.count : undefined) ?? this.count,
      this.#fixtures.categories,
    )
  }

  /** The seed kept under `key`, made once; the built one replaces the promise unless dropped meanwhile (a reload). */
  #seedIn<Key>(
    kept: SeedShelf<Key>,
    key: Key,
    data: Scenario['data'],
  ): Seed | Promise<Seed> {
    const made = kept.get(key)
    if (made) return made
    const building = createSeed({
      count: data
        ? (data.pets?.length ?? data.count ?? this.count)
        : (this.#fixtures.pets?.length ?? this.count),
      make: () => this.#petsOf(data),
    })
    kept.set(key, building)
    building.then(
      (built) => {
        if (kept.get(key) === building) kept.set(key, built)
      },
      // The worlds waiting for it get the error (through their `ready`).
      () => {},
    )
    return building
  }
}
