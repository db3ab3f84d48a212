import type { Collection } from '@msw/data'
import type { RequestHandler } from 'msw'
import {
  anonymousRateLimitHeaders,
  answerRefusedRequest,
  handleApiRequest,
  journalOverride,
  type ApiContext,
} from './api.js'
import { Failure, type HeaderMap, type Reply } from './api-errors.js'
import { createKeyIndex } from './auth.js'
import { matchBase, parseBaseUrls, type ApiBase } from './base-url.js'
import { createClock, type Clock, type ClockOptions } from './clock.js'
import { createDataset, type Dataset } from './dataset.js'
import { SandboxError } from './errors.js'
import { resolveFixtures, type Fixtures, type Plan, type PetFixture } from './fixtures.js'
import { handleControlRequest } from './control.js'
import { createSandboxHandlers } from './handlers.js'
import { Journal, type JournalEntry } from './journal.js'
import { JournalBudget } from './journal-budget.js'
import { latencySchema } from './latency.js'
import { hasOwnName } from './own-names.js'
import { RateLimiter } from './rate-limit.js'
import { checkTarget, targetPath } from './request-target.js'
import { forbiddenSessionOrigin } from './request-trust.js'
import { CONTROL_PATH } from './routes.js'
import { petSchema } from './schemas.js'
import {
  BUILT_IN_SCENARIOS,
  parseScenario,
  ScenarioRegistry,
  type Latency,
  type Scenario,
} from './scenarios.js'
import { generatePets } from './seed.js'
import { createSharedSeed, type SharedSeed } from './overlay-dataset.js'
import {
  DEFAULT_MAX_SESSIONS,
  DEFAULT_SESSION,
  DEFAULT_SESSION_TTL_SECONDS,
  isSessionId,
  SESSION_CREATED_HEADER,
  selectSession,
  SessionRegistry,
} from './sessions.js'
import { SessionWorld, type SessionHost } from './session-world.js'
import { STATE_FORMAT, type PersistedState, type SandboxStore } from './store.js'
import * as z from 'zod/mini'
import {
  DEFAULT_MAX_JOURNAL_BYTES,
  MAX_COUNT,
  MAX_JOURNAL_BYTES_LIMIT,
  MAX_JOURNAL_SIZE,
  MAX_LATENCY_MS,
  MAX_PETS_LIMIT,
  MAX_SESSION_TTL_SECONDS,
  MAX_SESSIONS_LIMIT,
} from './limits.js'
import { createPetQuota } from './pet-quota.js'

export const DEFAULT_SEED = 42
export const DEFAULT_COUNT = 50
export const DEFAULT_JOURNAL_SIZE = 100

/**
 * Options shared by every runtime (`createSandbox`, `setupSandboxServer`,
 * `setupSandboxWorker`, `createSandboxApp` and the CLI flags of the same names).
 * @see README.md#options
 */
export interface SandboxOptions {
  /** Faker seed: the same seed and count give the same pets, byte for byte. Default 42. */
  seed?: number
  /** How many pets to seed. Default 50. */
  count?: number
  /** Fixed data: demo keys and plans, categories, or pets to serve instead of faker's. */
  fixtures?: Fixtures
  /** The startup scenario: a loaded scenario's name or a scenario definition. */
  scenario?: string | Scenario
  /** More scenarios to load beside the built-in ones. */
  scenarios?: Scenario[]
  /** Where the API lives: `/v1` on any origin by default, or full base addresses. */
  baseUrl?: string | string[]
  /** Added to every /v1 response: milliseconds, or a `{ minMs, maxMs }` range. */
  latency?: Latency
  /** The sandbox clock: real time by default; `{ now, frozen }` for tests. */
  clock?: ClockOptions
  /** How many requests `GET /__sandbox/requests` keeps. Default 100. */
  journalSize?: number
  /**
   * The bytes the journals of the default session and every other session keep
   * together (an entry counts 256 bytes plus the UTF-8 bytes of its strings): over it,
   * the oldest entries of all sessions go first, but each session keeps its last 10.
   * Default 32 MiB (33,554,432).
   * @see README.md#sessions
   */
  maxJournalBytes?: number
  /**
   * Your own msw handlers, placed before the sandbox's in every runtime: their answers
   * are yours (not counted against limits, no headers added) and journalled as
   * overrides; one that returns nothing falls through to the sandbox.
   * @see README.md#your-own-msw-handlers
   */
  handlers?: readonly RequestHandler[]
  /**
   * Where the default data is kept beyond memory (the CLI's `--persist` file is one).
   * Every change is written through it and waited for: a create is answered 201 only
   * once the store has written it, and 507 `storage_failed` when it throws or rejects;
   * `reset()`, `reloadFixtures()` and `importState()` write the whole state. Scenario
   * datasets stay in memory. None by default. `createFileStore(path)` of
   * `petstore-sandbox/node` is the CLI's `--persist` file: it restores what the file
   * holds here, and `close()` releases it.
   * @example
   * createSandbox({ store: { write: (change) => log.push(change) } })
   * @see README.md#persistence-stores
   */
  store?: SandboxStore
  /** At most this many live sessions; the least recently used goes first. Default 1,000. */
  maxSessions?: number
  /** A session idle this long (by the sandbox clock) expires. Default 3,600 s. */
  sessionTtlSeconds?: number
  /**
   * The most pets requests may create in one world (the default data, a scenario's own
   * data); one more is 507 `storage_full`. Default 100,000. Ids in fixtures and scenario
   * files must leave room for them (at most 2^53 - 1 - maxPets).
   */
  maxPets?: number
  /** The most created pets across every world of the sandbox. Default 1,000,000. */
  maxTotalPets?: number
}

/** What `GET /__sandbox` returns. */
export interface SandboxState {
  scenario: { name: string; description: string }
  /** The session this state is of: `default`, or the one the request named. */
  session: string
  startupScenario: string
  scenarios: Array<{ name: string; description: string }>
  seed: number
  count: number
  counts: { pets: number }
  keys: Array<{
    key: string
    plan: string
    perMinute: number
    perDay: number
    expired: boolean
    /** The scenario a scenario key selects. */
    scenario?: string
  }>
  clock: { now: string; frozen: boolean }
  baseUrls: string[]
}

export type { PersistedState } from './store.js'

/**
 * One session's world: its own pets (starting as the seeded data), rate-limit windows
 * and bans, clock, scenario switch and journal. The sandbox itself is the default one.
 * @see README.md#sessions
 */
export interface SandboxSession {
  /** `default`, or the id requests name with `X-Sandbox-Session` or a session key. */
  readonly id: string
  /**
   * The session's pets as an @msw/data collection. A session shares the seeded pets
   * with every other one until this is first read; then they are copied into its own
   * collection (await `ready`), which its requests use from then on.
   */
  readonly db: { pets: Collection<typeof petSchema> }
  readonly clock: Clock
  readonly journal: Journal
  /** The scenario the session's requests get when they name none. */
  readonly scenario: Scenario
  /** Resolves once the session's data is in place. */
  readonly ready: Promise<void>
  /** Back to the start: seeded data, fresh windows and bans, the clock, the startup scenario, an empty journal. */
  reset(): Promise<void>
  /** Switches the session's scenario until reset. */
  useScenario(scenario: string | Scenario): void
  state(): SandboxState
}

/** A live session, as `GET /__sandbox/sessions` lists it. */
export interface SessionInfo {
  id: string
  createdAt: string
  lastUsedAt: string
  pets: number
}

/**
 * A sandbox: the msw handlers of the v1 API and the control API, over one @msw/data
 * model, with its clock, scenarios and request journal.
 * @see README.md#createsandbox
 */
export interface Sandbox extends SandboxSession {
  /**
   * A session's world, made if it is not live (as its first request would): for tests
   * and the browser. `default` is the sandbox itself.
   * @see README.md#sessions
   */
  session(id: string): SandboxSession
  /** The live sessions besides the default one, least recently used first. */
  sessions(): SessionInfo[]
  /** Ends a session; false when it was not live. */
  endSession(id: string): boolean
  /** The msw request handlers (yours first); give them to setupServer, setupWorker or getResponse. */
  readonly handlers: RequestHandler[]
  /** Your own handlers (option `handlers`), in front of the sandbox's. */
  readonly overrides: readonly RequestHandler[]
  /**
   * Replaces your own handlers for runtimes that read them per request (the Express
   * adapter, the CLI's `--watch`); `setupServer`/`setupWorker` keep the list they got.
   */
  useOverrides(handlers: readonly RequestHandler[]): void
  /** Journals a request one of your handlers answered, marked as an override. */
  recordOverride(request: Request, status: number): void
  /** The @msw/data collections of the default data. */
  readonly db: { pets: Collection<typeof petSchema> }
  readonly clock: Clock
  readonly journal: Journal
  readonly scenarios: ScenarioRegistry
  /** The scenario requests get when they name none. */
  readonly scenario: Scenario
  readonly startupScenario: string
  readonly bases: ApiBase[]
  readonly seed: number
  readonly count: number
  /**
   * Resolves once the seeded data (or the last reset, reload or restore) is in place;
   * a store that failed to write it does not make it reject.
   */
  readonly ready: Promise<void>
  /**
   * Back to the start: seeded data, fresh windows and bans, the clock, the startup
   * scenario, an empty journal. With a store, resolves once it has written the state
   * (rejects with a StoreWriteError if it could not; the sandbox is reset anyway).
   */
  reset(): Promise<void>
  /** Switches the scenario for every following request until reset. */
  useScenario(scenario: string | Scenario): void
  /** Loads (or replaces) a scenario so it can be selected by name. */
  addScenario(scenario: Scenario): void
  /**
   * Replaces the fixtures and reloads the data they define; created pets are kept, with
   * their ids unless a pet of the new fixtures has it. Requests sent meanwhile wait for
   * the reload. Written through the store like a reset.
   */
  reloadFixtures(fixtures: Fixtures | undefined): Promise<void>
  state(): SandboxState
  /** Calls `listener` after every /v1 request; returns the function that unsubscribes. */
  onRequest(listener: (entry: JournalEntry) => void): () => void
  /** The default data's pets, for persistence. */
  exportState(): PersistedState
  /**
   * Replaces the default data's pets with persisted ones (validated), and writes them
   * through the store. Pets whose ids are not seeded ones count as created.
   */
  importState(state: unknown, source?: string): Promise<void>
  /**
   * Closes the store (option `store`), if it has a `close()`: waits for its pending
   * writes and releases what it holds (`createFileStore`'s lock). Later creates are
   * answered 507 `storage_failed`. Nothing to do without a store.
   * @example
   * const sandbox = createSandbox({ store: createFileStore('state.jsonl') })
   * afterAll(() => sandbox.close())
   * @see README.md#a-file-store-in-code
   */
  close(): Promise<void>
  /**
   * The sandbox's one port: answers a request of the API or the control API, or
   * undefined when the URL is neither's (the caller goes on to other handlers). The msw
   * handlers are thin wrappers over it.
   */
  handle(request: Request, init?: HandleInit): Promise<Reply | undefined>
  /**
   * Whether `handle` answers this URL (`target`: the path and query as sent): the
   * decision a server adapter makes before it reads a body, the same the handlers make.
   */
  owns(url: URL, target?: string): boolean
  /**
   * The answer to a request a server refused before the API read it (a body over its
   * limit, a Host that is not one): the Error body, the caller's rate-limit headers (not
   * counted) and a journal entry. `target` is the path as sent.
   */
  refuse(request: Request, failure: Failure, target?: string): Reply
  /**
   * The rate-limit headers of an answer a server gives before it can read a request (a
   * 431, 408 or 400 on the socket): the anonymous plan's window, not counted.
   */
  rateLimitHeaders(): HeaderMap
}

/** What a transport knows of a request besides the Fetch Request. */
export interface HandleInit {
  /** The body, when the transport has read it already (the request then has none). */
  body?: Uint8Array
  /** The path and query as the client sent them, before any URL parser normalised them. */
  target?: string
  /**
   * The request's `Origin`, when the server does not trust it (the standalone app's
   * rule, README.md#security): a `/v1` request may then use the default session and
   * live ones, but one naming a session that does not exist is 403 `forbidden_origin`
   * instead of making it. msw runtimes leave it out: what they intercept comes from the
   * process itself, or from pages of the worker's own origin.
   */
  untrustedOrigin?: string
}

const intIn = (min: number, max: number) =>
  z.optional(z.number().check(z.int(), z.gte(min), z.lte(max)))
const optionsSchema = z.object({
  maxSessions: intIn(1, MAX_SESSIONS_LIMIT),
  sessionTtlSeconds: intIn(1, MAX_SESSION_TTL_SECONDS),
  seed: z.optional(z.number().check(z.int())),
  count: intIn(0, MAX_COUNT),
  journalSize: intIn(0, MAX_JOURNAL_SIZE),
  maxJournalBytes: intIn(0, MAX_JOURNAL_BYTES_LIMIT),
  maxPets: intIn(0, MAX_PETS_LIMIT),
  maxTotalPets: intIn(0, MAX_PETS_LIMIT),
  latency: z.optional(latencySchema),
})

/**
 * Creates a sandbox of the Pet Adoption Service v1 API. Synchronous: the data is seeded
 * in the background and every handler waits for it.
 *
 * @example
 * import { createSandbox } from 'petstore-sandbox'
 * const sandbox = createSandbox({ seed: 42, count: 20 })
 * const server = setupServer(...sandbox.handlers)
 * @see README.md#createsandbox
 */
export function createSandbox(options: SandboxOptions = {}): Sandbox {
  const checked = optionsSchema.safeParse(options)
  if (!checked.success) {
    const issue = checked.error.issues[0]
    throw SandboxError.for(
      'INVALID_OPTION',
      'create the sandbox',
      // Only the first letter: the rule may name fields (minMs).
      `option ${String(issue?.path.join('.'))} ${issue?.message.replace(/^./, (first) => first.toLowerCase())}`,
      `See README.md#options: seed is an integer, count 0 to ${MAX_COUNT.toLocaleString('en-US')}, journalSize 0 to ${MAX_JOURNAL_SIZE.toLocaleString('en-US')}, maxJournalBytes 0 to ${MAX_JOURNAL_BYTES_LIMIT.toLocaleString('en-US')}, maxPets and maxTotalPets 0 to ${MAX_PETS_LIMIT.toLocaleString('en-US')}, maxSessions 1 to ${MAX_SESSIONS_LIMIT.toLocaleString('en-US')}, sessionTtlSeconds 1 to ${MAX_SESSION_TTL_SECONDS.toLocaleString('en-US')}, latency 0 to ${MAX_LATENCY_MS.toLocaleString('en-US')} ms or { minMs, maxMs }.`,
    )
  }
  const seed = options.seed ?? DEFAULT_SEED
  const count = options.count ?? DEFAULT_COUNT
  const { maxPets, maxTotalPets } = options
  let fixtures = resolveFixtures(options.fixtures, undefined, maxPets)
  const bases = parseBaseUrls(options.baseUrl)
  const clock = createClock(options.clock)
  // Every world's journal, the default one's and each session's, tells these listeners.
  const requestListeners = new Set<(entry: JournalEntry) => void>()
  const forward = (entry: JournalEntry) => {
    for (const listener of requestListeners) listener(entry)
  }
  // One byte budget for the journals of every world (README.md#sessions).
  const journalBudget = new JournalBudget(
    options.maxJournalBytes ?? DEFAULT_MAX_JOURNAL_BYTES,
  )
  const journal = new Journal(
    options.journalSize ?? DEFAULT_JOURNAL_SIZE,
    forward,
    journalBudget,
  )
  const limiter = new RateLimiter()
  const registry = new ScenarioRegistry(BUILT_IN_SCENARIOS)
  for (const [index, scenario] of (options.scenarios ?? []).entries()) {
    registry.add(parseScenario(scenario, `options.scenarios[${index}]`, maxPets))
  }
  let startup: Scenario
  if (typeof options.scenario === 'object' && options.scenario !== null) {
    startup = parseScenario(options.scenario, 'options.scenario', maxPets)
    registry.add(startup)
  } else {
    startup = registry.get(options.scenario ?? 'default', 'select the startup scenario')
  }
  let active = startup
  const indexKeys = () =>
    createKeyIndex(fixtures.apiKeys, registry.list(), (scenario) =>
      BUILT_IN_SCENARIOS.includes(scenario as Scenario),
    )
  let keys = indexKeys()
  let overrides = checkOverrides(options.handlers ?? [], 'options.handlers')

  const defaultPets = () =>
    fixtures.pets ?? generatePets(seed, count, fixtures.categories)
  // Every world of the sandbox counts its created pets here.
  const quota = createPetQuota({ maxPets, maxTotalPets })
  const main = createDataset(
    defaultPets,
    options.store ? { store: options.store, seed, count } : undefined,
    quota,
  )
  /** Datasets of scenarios that bring their own data, created on first use. */
  const scenarioData = new Map<string, Dataset>()
  /** Drops scenario datasets (one, or all): their created pets stop counting. */
  const dropScenarioData = (name?: string) => {
    for (const [key, dataset] of scenarioData) {
      if (name !== undefined && key !== name) continue
      dataset.release()
      scenarioData.delete(key)
    }
  }

  const datasetFor = (scenario: Scenario): Dataset | Promise<Dataset> => {
    const data = scenario.data
    if (!data) return main
    let dataset = scenarioData.get(scenario.name)
    if (!dataset) {
      const initial = (): PetFixture[] =>
        data.pets ??
        generatePets(data.seed ?? seed, data.count ?? count, fixtures.categories)
      dataset = createDataset(initial, undefined, quota)
      scenarioData.set(scenario.name, dataset)
    }
    return dataset.ready.then(() => dataset)
  }

  let pending: Promise<void> = main.ready

  const anonymousPlan = () => {
    const name = hasOwnName(fixtures.apiKeys.plans, 'free')
      ? 'free'
      : (Object.keys(fixtures.apiKeys.plans)[0] as string)
    return { name, plan: fixtures.apiKeys.plans[name] as Plan }
  }

  /** The default world as the API reads it; sessions are SessionWorlds. */
  const ctx: ApiContext = {
    bases,
    get keys() {
      return keys
    },
    get anonymousPlan() {
      return anonymousPlan()
    },
    registry,
    latency: options.latency,
    clock,
    limiter,
    journal,
    activeScenario: () => active,
    dataset: datasetFor,
    get ready() {
      return pending
    },
  }

  // By name, so a startup scenario reloaded from its file (--watch) stays reloaded.
  const currentStartup = () =>
    registry.has(startup.name) ? registry.get(startup.name) : startup
  const selectScenario = (scenario: string | Scenario): Scenario => {
    if (typeof scenario === 'string') return registry.get(scenario)
    const parsed = parseScenario(scenario, 'useScenario()', maxPets)
    registry.add(parsed)
    keys = indexKeys()
    return parsed
  }
  const stateOf = (world: SandboxSession, pets: number): SandboxState => ({
    scenario: { name: world.scenario.name, description: world.scenario.description },
    session: world.id,
    startupScenario: startup.name,
    scenarios: registry.list().map(({ name, description }) => ({ name, description })),
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
  })

  /** The seeded pets of the default data and of each data scenario, made once for every session. */
  const sharedSeeds = new Map<string, SharedSeed>()
  const sharedSeedFor = (scenario?: Scenario): SharedSeed => {
    const name = scenario?.data ? scenario.name : ''
    let shared = sharedSeeds.get(name)
    if (!shared) {
      const data = scenario?.data
      shared = createSharedSeed(
        data
          ? (data.pets ??
              generatePets(data.seed ?? seed, data.count ?? count, fixtures.categories))
          : defaultPets(),
      )
      sharedSeeds.set(name, shared)
    }
    return shared
  }

  // Everything every session shares; a session adds its own clock, limiter, journal,
  // scenario switch and pets (session-world.ts).
  // Functions rather than getters: V8 keeps an object literal with a getter as a
  // dictionary, slower to read, and every request of every session reads this one.
  const host: SessionHost = {
    bases,
    keys: () => keys,
    anonymousPlan,
    registry,
    latency: options.latency,
    clockOptions: options.clock,
    journalSize: options.journalSize ?? DEFAULT_JOURNAL_SIZE,
    journalBudget,
    quota,
    forward,
    startupScenario: currentStartup,
    selectScenario,
    seedFor: sharedSeedFor,
    stateOf,
  }

  const sessionRegistry = new SessionRegistry<SessionWorld>(
    (id, now) => new SessionWorld(id, now, host),
    () => clock.now(),
    options.maxSessions ?? DEFAULT_MAX_SESSIONS,
    (options.sessionTtlSeconds ?? DEFAULT_SESSION_TTL_SECONDS) * 1000,
  )

  /** The world of a session id: the sandbox's own for `default`. */
  const worldOf = (id: string): { world: SessionWorld | undefined; created: boolean } => {
    if (id === DEFAULT_SESSION) return { world: undefined, created: false }
    const { session, created } = sessionRegistry.use(id)
    return { world: session, created }
  }

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
      return worldOf(id).world ?? sandbox
    },
    sessions: () =>
      sessionRegistry.list().map((world) => ({
        id: world.id,
        createdAt: new Date(world.createdAt).toISOString(),
        lastUsedAt: new Date(world.lastUsedAt).toISOString(),
        pets: world.petCount(),
      })),
    endSession: (id) => sessionRegistry.delete(id),
    handlers: [],
    get overrides() {
      return overrides
    },
    useOverrides(handlers) {
      overrides = checkOverrides(handlers, 'useOverrides()')
    },
    recordOverride(request, status) {
      // In the journal of the session the request named, when that session is live.
      const selection = selectSession(request, (key) => keys.has(key))
      const world =
        selection instanceof Failure ? undefined : sessionRegistry.peek(selection.id)
      journalOverride(world ?? ctx, request, status)
    },
    db: { pets: main.pets },
    clock,
    journal,
    scenarios: registry,
    get scenario() {
      return active
    },
    startupScenario: startup.name,
    bases,
    seed,
    count,
    get ready() {
      return pending
    },
    reset() {
      limiter.reset()
      clock.reset()
      journal.clear()
      active = currentStartup()
      dropScenarioData()
      const done = main.reset()
      pending = main.ready
      return done
    },
    useScenario(scenario) {
      active = selectScenario(scenario)
    },
    addScenario(scenario) {
      const parsed = parseScenario(scenario, 'addScenario()', maxPets)
      const previous = registry.has(parsed.name) ? registry.get(parsed.name) : undefined
      registry.add(parsed)
      try {
        keys = indexKeys()
      } catch (error) {
        if (previous) registry.add(previous)
        throw error
      }
      dropScenarioData(parsed.name)
      sharedSeeds.delete(parsed.name)
      if (active.name === parsed.name) active = parsed
    },
    async reloadFixtures(next) {
      fixtures = resolveFixtures(next, undefined, maxPets)
      keys = indexKeys()
      dropScenarioData()
      sharedSeeds.clear()
      // Requests wait for the reload as for a reset: none sees the data half loaded.
      const done = main.reload()
      pending = main.ready
      await done
    },
    state: () => stateOf(sandbox, main.count()),
    onRequest(listener) {
      requestListeners.add(listener)
      return () => requestListeners.delete(listener)
    },
    exportState: () => ({
      format: STATE_FORMAT,
      seed,
      count,
      pets: main.snapshot(),
    }),
    async importState(state, source = 'importState()') {
      const parsed = persistedStateSchema.safeParse(state)
      if (!parsed.success) {
        throw SandboxError.for(
          'INVALID_PERSISTED_STATE',
          `restore the state from ${source}`,
          'it is not a petstore-sandbox state file (format "petstore-sandbox/state@1")',
          'Point --persist at a new file, or delete this one to start from the seeded data.',
        )
      }
      const done = main.restore(parsed.data.pets)
      pending = main.ready
      await done
    },
    async close() {
      await options.store?.close?.()
    },
    owns: (url, target) => scopeOf(url, target) !== undefined,
    async handle(request, init = {}) {
      const url = new URL(request.url)
      const target = init.target ?? `${url.pathname}${url.search}`
      const scope = scopeOf(url, target)
      if (!scope) return undefined
      if (scope.unsafe) return answerRefusedRequest(ctx, request, scope.unsafe, target)
      const { api, control } = scope
      const selection = selectSession(request, (key) => keys.has(key))
      if (selection instanceof Failure) {
        return answerRefusedRequest(ctx, request, selection, target)
      }
      const body = async () => init.body ?? new Uint8Array(await request.arrayBuffer())
      let created = false
      let reply: Reply | undefined
      if (api) {
        const { untrustedOrigin } = init
        if (
          untrustedOrigin !== undefined &&
          selection.id !== DEFAULT_SESSION &&
          !sessionRegistry.peek(selection.id)
        ) {
          const refused = forbiddenSessionOrigin(untrustedOrigin, selection.id)
          return answerRefusedRequest(ctx, request, refused, target)
        }
        const named = worldOf(selection.id)
        created = named.created
        reply = await handleApiRequest(named.world ?? ctx, {
          request,
          url,
          apiBase: api.base.path,
          rest: api.rest,
          authorization: selection.authorization,
          body,
        })
      } else if (control) {
        reply = await handleControlRequest(sandbox, {
          request,
          url,
          rest: control.rest,
          body,
          // Made only when an endpoint acts on it (not for /__sandbox/sessions).
          session() {
            const named = worldOf(selection.id)
            created ||= named.created
            return named.world ?? sandbox
          },
        })
      }
      if (reply && created) {
        reply.headers = { ...reply.headers, [SESSION_CREATED_HEADER]: 'true' }
      }
      return reply
    },
    refuse: (request, failure, target) =>
      answerRefusedRequest(ctx, request, failure, target),
    rateLimitHeaders: () => anonymousRateLimitHeaders(ctx),
  }

  /**
   * Which of the sandbox's scopes a URL is in, the one decision of "is this mine?" that
   * every adapter and the handlers share. A target that fails `checkTarget` (as sent,
   * before any routing) is the sandbox's to refuse when either reading of its path, as
   * sent or as the URL parser normalised it, is under one of its base paths.
   */
  function scopeOf(url: URL, target = `${url.pathname}${url.search}`) {
    const api = matchBase(bases, url.origin, url.pathname, (base) => base.path)
    const control = api
      ? undefined
      : matchBase(bases, url.origin, url.pathname, () => CONTROL_PATH)
    const unsafe = checkTarget(target)
    if (!unsafe) return api || control ? { api, control } : undefined
    const sentPath = targetPath(target)
    const claimed =
      api ??
      control ??
      matchBase(bases, url.origin, sentPath, (base) => base.path) ??
      matchBase(bases, url.origin, sentPath, () => CONTROL_PATH)
    return claimed ? { api, control, unsafe } : undefined
  }

  ;(sandbox as { handlers: RequestHandler[] }).handlers = createSandboxHandlers(sandbox)
  // A store that holds data (a file) restores it now: requests wait for it.
  options.store?.attach?.(sandbox)
  return sandbox
}

const persistedStateSchema = z.object({
  format: z.literal(STATE_FORMAT),
  seed: z.number().check(z.int()),
  count: z.number().check(z.int()),
  // The same Pet schema the store validates with: a state file holds nothing else.
  pets: z.array(petSchema),
})
/** Your handlers must be msw request handlers (of msw 2 or 3: what getResponse runs). */
function checkOverrides(
  handlers: readonly RequestHandler[],
  source: string,
): readonly RequestHandler[] {
  if (!Array.isArray(handlers)) {
    throw SandboxError.for(
      'INVALID_OPTION',
      `read ${source}`,
      `it is ${typeof handlers}, not an array of msw handlers`,
      'Pass an array such as [http.get(...)] (see README.md#your-own-msw-handlers).',
    )
  }
  handlers.forEach((handler, index) => {
    if (typeof (handler as { run?: unknown } | null)?.run !== 'function') {
      throw SandboxError.for(
        'INVALID_OPTION',
        `read ${source}`,
        `${source}[${index}] is not an msw request handler`,
        'Build each one with msw (http.get, http.post, graphql.query, ...); see README.md#your-own-msw-handlers.',
      )
    }
  })
  return [...handlers]
}
