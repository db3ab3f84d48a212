import { createKeyIndex } from './api/auth.js'
import { parseBaseUrls } from './http/base-url.js'
import { SandboxError } from './common/errors.js'
import { resolveFixtures, type PetFixture, type Plan } from './data/fixtures.js'
import { createSandboxHandlers } from './pipeline/handlers.js'
import type { JournalEntry } from './coach/journal.js'
import { JournalBudget } from './coach/journal-budget.js'
import { DEFAULT_MAX_JOURNAL_BYTES } from './common/limits.js'
import { hasOwnName } from './common/own-names.js'
import { createPetQuota } from './data/pet-quota.js'
import { createSeed, type Seed } from './data/pet-seed.js'
import {
  checkOptions,
  checkOverrides,
  DEFAULT_COUNT,
  DEFAULT_JOURNAL_SIZE,
  DEFAULT_SEED,
  attachStore,
  parsePersistedState,
  releaseStoreOf,
  withoutNulls,
} from './sandbox-options.js'
import { createPipeline } from './pipeline/pipeline.js'
import { registerPort } from './pipeline/sandbox-port.js'
import type {
  Sandbox,
  SandboxOptions,
  SandboxState,
  World,
} from './world/sandbox-types.js'
import { ScenarioRegistry } from './scenarios/scenario-registry.js'
import {
  BUILT_IN_SCENARIOS,
  parseScenario,
  type Scenario,
} from './scenarios/scenarios.js'
import { generatePetsSteps } from './data/seed.js'
import type { Steps } from './common/slices.js'
import { createSessionCarrying } from './world/session-carry.js'
import {
  DEFAULT_MAX_SESSIONS,
  DEFAULT_SESSION,
  DEFAULT_SESSION_TTL_SECONDS,
  idleTime,
  isSessionId,
  SessionRegistry,
} from './world/sessions.js'
import { STATE_FORMAT } from './data/store.js'
import { SandboxWorld, type Shared } from './world/world.js'

export { DEFAULT_COUNT, DEFAULT_JOURNAL_SIZE, DEFAULT_SEED } from './sandbox-options.js'
export type {
  Sandbox,
  SandboxOptions,
  SandboxState,
  SessionInfo,
  World,
} from './world/sandbox-types.js'
export type { PersistedState } from './data/store.js'

/**
 * Creates a sandbox of the Pet Adoption Service v1 API. Synchronous: the data is seeded
 * in the background and every handler waits for it.
 *
 * The sandbox keeps what its worlds share (keys, scenarios, seeds, the pet quota, the
 * journal budget, the session registry); each world (the default one, every session)
 * is a SandboxWorld (world.ts), and the sandbox's own world members are the default
 * world's.
 *
 * @example
 * import { createSandbox } from 'petstore-sandbox'
 * const sandbox = createSandbox({ seed: 42, count: 20 })
 * const server = setupServer(...sandbox.handlers)
 * @see docs/options.md#createsandbox
 */
export function createSandbox(given: SandboxOptions = {}): Sandbox {
  const options = withoutNulls(given)
  try {
    return assembleSandbox(options)
  } catch (error) {
    // A bad option: the store it was given serves no sandbox, and a file store's lock
    // would stay held until the process exits (the corrected call would find the file
    // locked by this very process). The store is the caller's: it lets go of its lock
    // and stays usable; it is not closed.
    releaseStoreOf(options)
    throw error
  }
}

function assembleSandbox(options: SandboxOptions): Sandbox {
  checkOptions(options)
  const seed = options.seed ?? DEFAULT_SEED
  const count = options.count ?? DEFAULT_COUNT
  const { maxPets, maxTotalPets } = options
  let fixtures = resolveFixtures(options.fixtures, undefined, maxPets)
  const bases = parseBaseUrls(options.baseUrl)
  // The plans of the fixtures loaded now (a reload changes them): a scenario's
  // rateLimits.plans must name them.
  const plans = () => Object.keys(fixtures.apiKeys.plans)
  const registry = new ScenarioRegistry(BUILT_IN_SCENARIOS)
  for (const [index, scenario] of (options.scenarios ?? []).entries()) {
    registry.load(
      parseScenario(scenario, `options.scenarios[${index}]`, { maxPets, plans: plans() }),
    )
  }
  let startup: Scenario
  if (typeof options.scenario === 'object' && options.scenario !== null) {
    startup = parseScenario(options.scenario, 'options.scenario', {
      maxPets,
      plans: plans(),
    })
    registry.load(startup)
  } else {
    startup = registry.get(options.scenario ?? 'default', 'select the startup scenario')
  }
  const indexKeys = () =>
    createKeyIndex(fixtures.apiKeys, registry.list(), (scenario) =>
      BUILT_IN_SCENARIOS.includes(scenario as Scenario),
    )
  let keys = indexKeys()
  let overrides = checkOverrides(options.handlers ?? [], 'options.handlers')
  // One counter of request ids for every world (X-Sandbox-Request-Id).
  let lastRequestId = 0
  // Every world's journal tells these listeners (onRequest).
  const requestListeners = new Set<(entry: JournalEntry) => void>()

  /** The seeded pets of the default data ('') and of each data scenario, made once for every world. */
  const seeds = new Map<string, Seed | Promise<Seed>>()
  /** Those of scenarios a session defined at run time: theirs alone, gone with them. */
  const definedSeeds = new WeakMap<Scenario, Seed | Promise<Seed>>()
  /** The steps that make the pets of a data scenario (or of the sandbox's own data). */
  function* petsOf(data: Scenario['data']): Steps<PetFixture[]> {
    const given = data ? data.pets : fixtures.pets
    if (given) return given
    return yield* generatePetsSteps(
      data?.seed ?? seed,
      (data ? data.count : undefined) ?? count,
      fixtures.categories,
    )
  }
  /** The seed kept under `key`, made once; the built one replaces the promise unless dropped meanwhile (a reload). */
  const seedIn = <Key>(
    kept: {
      get(key: Key): Seed | Promise<Seed> | undefined
      set(key: Key, seed: Seed | Promise<Seed>): unknown
    },
    key: Key,
    data: Scenario['data'],
  ): Seed | Promise<Seed> => {
    let made = kept.get(key)
    if (!made) {
      const building = createSeed({
        count: data
          ? (data.pets?.length ?? data.count ?? count)
          : (fixtures.pets?.length ?? count),
        make: () => petsOf(data),
      })
      made = building
      kept.set(key, building)
      building.then(
        (built) => {
          if (kept.get(key) === building) kept.set(key, built)
        },
        // The worlds waiting for it get the error (through their `ready`).
        () => {},
      )
    }
    return made
  }
  const seedFor = (scenario?: Scenario): Seed | Promise<Seed> => {
    const data = scenario?.data
    if (!data) return seedIn(seeds, '', undefined)
    const defined = scenario as Scenario
    const loaded = registry.has(defined.name) && registry.get(defined.name) === defined
    return loaded
      ? seedIn(seeds, defined.name, data)
      : seedIn(definedSeeds, defined, data)
  }
  // By name, so a startup scenario reloaded from its file (--watch) stays reloaded.
  const currentStartup = () =>
    registry.has(startup.name) ? registry.get(startup.name) : startup
  const selectScenario = (scenario: string | Scenario): Scenario => {
    if (typeof scenario === 'string') return registry.get(scenario)
    const parsed = parseScenario(scenario, 'useScenario()', { maxPets, plans: plans() })
    registry.add(parsed)
    keys = indexKeys()
    return parsed
  }

  const shared: Shared = {
    bases,
    parseDefinition: (definition, source) =>
      parseScenario(definition, source, {
        maxPets,
        action: 'define',
        plans: plans(),
        count,
      }),
    keys: () => keys,
    anonymousPlan() {
      const name = hasOwnName(fixtures.apiKeys.plans, 'free')
        ? 'free'
        : (Object.keys(fixtures.apiKeys.plans)[0] as string)
      return { name, plan: fixtures.apiKeys.plans[name] as Plan }
    },
    registry,
    latency: options.latency,
    clockOptions: options.clock,
    journalSize: options.journalSize ?? DEFAULT_JOURNAL_SIZE,
    // One byte budget for the journals of every world (docs/sessions.md).
    journalBudget: new JournalBudget(
      options.maxJournalBytes ?? DEFAULT_MAX_JOURNAL_BYTES,
    ),
    quota: createPetQuota({ maxPets, maxTotalPets }),
    forward(entry) {
      for (const listener of requestListeners) listener(entry)
    },
    startupScenario: currentStartup,
    selectScenario,
    seedFor,
    seed,
    count,
    stateOf: (world, pets): SandboxState => ({
      scenario: { name: world.scenario.name, description: world.scenario.description },
      session: world.id,
      startupScenario: startup.name,
      scenarios: [...registry.list(), ...world.definedScenarios()].map(
        ({ name, description }) => ({ name, description }),
      ),
      seed,
      count,
      counts: { pets },
      keys: [...keys.values()].map((entry) => ({
        key: entry.key,
        plan: entry.planName,
        perMinute: entry.plan.perMinute,
        perDay: entry.plan.perDay,
        expired: entry.expired,
        ...(entry.scenario === undefined ? {} : { scenario: entry.scenario }),
      })),
      clock: world.clock.state(),
      baseUrls: bases.map((base) => `${base.origin ?? '*'}${base.path}`),
    }),
  }

  const persistence = options.store ? { store: options.store, seed, count } : undefined
  const main = new SandboxWorld(DEFAULT_SESSION, 0, shared, persistence)
  const sessions = new SessionRegistry<SandboxWorld>(
    (id, now) => new SandboxWorld(id, now, shared),
    // Real time (or the idleNow option), never a sandbox clock: moving the default
    // session's clock must end nobody's session.
    idleTime(options.idleNow),
    options.maxSessions ?? DEFAULT_MAX_SESSIONS,
    (options.sessionTtlSeconds ?? DEFAULT_SESSION_TTL_SECONDS) * 1000,
  )
  const worldOf = (id: string): { world: SandboxWorld; created: boolean } => {
    if (id === DEFAULT_SESSION) {
      // Expired sessions end at the next request, whichever session it names.
      sessions.sweep()
      return { world: main, created: false }
    }
    const { session, created } = sessions.use(id)
    return { world: session, created }
  }

  const { internals: carryingInternals, ...carrying } = createSessionCarrying({
    seed,
    count,
    maxPets,
    registry,
    origin: bases.find((base) => base.origin !== undefined)?.origin ?? 'http://localhost',
    main,
    sessions,
    worldOf,
    face: (world) => face(world),
  })

  const sandbox: Sandbox = {
    id: DEFAULT_SESSION,
    session(id) {
      if (!isSessionId(id)) {
        throw SandboxError.for(
          'INVALID_OPTION',
          `open the session ${JSON.stringify(id)}`,
          'a session id is 1 to 64 letters, digits, "-" or "_"',
          'Use an id such as "worker-1".',
        )
      }
      return face(worldOf(id).world)
    },
    sessions: () =>
      sessions.list().map((world) => ({
        id: world.id,
        createdAt: new Date(world.createdAt).toISOString(),
        lastUsedAt: new Date(world.lastUsedAt).toISOString(),
        pets: world.petCount(),
      })),
    endSession: (id) => sessions.delete(id),
    handlers: [],
    get overrides() {
      return overrides
    },
    get db() {
      return main.db
    },
    clock: main.clock,
    journal: main.journal,
    scenarios: registry,
    get scenario() {
      return main.scenario
    },
    startupScenario: startup.name,
    bases,
    seed,
    count,
    get ready() {
      return main.ready
    },
    reset: () => main.reset(),
    useScenario: (scenario) => main.useScenario(scenario),
    defineScenario: (scenario) => main.defineScenario(scenario),
    removeScenario: (name) => main.removeScenario(name),
    addScenario(scenario) {
      const parsed = parseScenario(scenario, 'addScenario()', { maxPets, plans: plans() })
      const previous = registry.has(parsed.name) ? registry.get(parsed.name) : undefined
      registry.add(parsed)
      try {
        keys = indexKeys()
      } catch (error) {
        if (previous) registry.add(previous)
        throw error
      }
      // The default world's pets of that scenario start again from its new data;
      // sessions keep theirs until they reset (as before).
      main.dropScenarioPets(parsed.name)
      seeds.delete(parsed.name)
      main.refreshScenario(parsed)
    },
    async reloadFixtures(next) {
      fixtures = resolveFixtures(next, undefined, maxPets)
      keys = indexKeys()
      main.dropScenarioPets()
      seeds.clear()
      // Requests wait for the reload as for a reset: none sees the data half loaded.
      return main.pets.reload()
    },
    state: () => main.state(),
    report: () => main.report(),
    onRequest(listener) {
      requestListeners.add(listener)
      return () => requestListeners.delete(listener)
    },
    exportState: () => ({
      format: STATE_FORMAT,
      seed,
      count,
      pets: main.pets.snapshot(),
    }),
    async importState(state, source = 'importState()') {
      await main.pets.restore(parsePersistedState(state, source).pets)
    },
    async close() {
      await options.store?.close?.()
    },
    ...carrying,
  }
  /** A world as its users see it: the sandbox itself for the default one. */
  const face = (world: SandboxWorld): World => (world === main ? sandbox : world)
  registerPort(sandbox, {
    ...createPipeline({
      bases,
      keys: () => keys,
      main,
      sessions,
      worldOf,
      sandbox,
      nextRequestId: () => ++lastRequestId,
      carrying: carryingInternals,
    }),
    useOverrides(handlers) {
      overrides = checkOverrides(handlers, 'useOverrides()')
    },
    carrying: carryingInternals,
  })

  ;(sandbox as { handlers: unknown }).handlers = createSandboxHandlers(sandbox)
  // A store that holds data (a file) restores it now: requests wait for it.
  if (options.store) attachStore(options.store, sandbox)
  return sandbox
}
