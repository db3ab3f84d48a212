import type { Collection } from '@msw/data'
import type { RequestHandler } from 'msw'
import type { ApiBase } from '../http/base-url.js'
import type { Clock, ClockOptions } from '../data/clock.js'
import type { Fixtures } from '../data/fixtures.js'
import type { Har } from '../coach/har.js'
import type { Journal, JournalEntry } from '../coach/journal.js'
import type { MovedPet } from '../data/pet-data.js'
import type { petSchema } from '../common/schemas.js'
import type { Report } from '../coach/report-card.js'
import type { ScenarioRegistry } from '../scenarios/scenario-registry.js'
import type { Latency, Scenario } from '../scenarios/scenarios.js'
import type { SessionExport } from '../coach/session-export.js'
import type { PersistedState, StoreChange } from '../data/store.js'

// The public types of a sandbox and its worlds (createSandbox is in sandbox.ts).

/**
 * Options shared by every runtime (`createSandbox`, `setupSandboxServer`,
 * `setupSandboxWorker`, `createSandboxApp` and the CLI flags of the same names).
 * @see docs/options.md#options
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
   * @see docs/sessions.md
   */
  maxJournalBytes?: number
  /**
   * Your own msw handlers, placed before the sandbox's in every runtime: their answers
   * are yours (not counted against limits, no headers added) and journalled as
   * overrides; one that returns nothing falls through to the sandbox.
   * @see docs/handlers.md
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
   * @see docs/persistence.md#persistence-stores
   */
  store?: SandboxStore
  /** At most this many live sessions; the least recently used goes first. Default 1,000. */
  maxSessions?: number
  /**
   * A session idle this long expires (its pets, journal and scenario go; named again, it
   * starts anew). Idle time is real time (`idleNow`), never a sandbox clock: moving a
   * clock ends no session. Default 3,600 s.
   * @see docs/sessions.md#expiry
   */
  sessionTtlSeconds?: number
  /**
   * What sessions' idle time is read from: a function returning milliseconds, as
   * `Date.now()` does (the default). A test that needs a session to expire gives its own
   * and moves it past `sessionTtlSeconds`; `sandbox.endSession(id)` and
   * `DELETE /__sandbox/sessions/{id}` end one at once. No sandbox clock moves it. It also
   * dates the `createdAt` and `lastUsedAt` of `GET /__sandbox/sessions`.
   * @example
   * let idle = Date.now()
   * const sandbox = createSandbox({ sessionTtlSeconds: 60, idleNow: () => idle })
   * idle += 61_000 // every session idle since before now has expired
   * @see docs/sessions.md#expiry
   */
  idleNow?: () => number
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

/**
 * A world: one session's pets (the seeded data plus its own changes), rate-limit windows
 * and bans, clock, scenario switch and journal. The sandbox itself is the default one;
 * `sandbox.session(id)` gives the others.
 * @see docs/sessions.md
 */
export interface World {
  /** `default`, or the id requests name with `X-Sandbox-Session` or a session key. */
  readonly id: string
  /**
   * The session's pets as an @msw/data collection, right at the first read once
   * `await session.ready` has resolved (before, or while a reset or reload is under way,
   * a read or change throws a SandboxError `NOT_READY` saying so): the seeded pets and
   * what the session created. Its records are shared with other sessions and frozen: change
   * them through the collection (`update`, `delete`), as its requests do.
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
  /**
   * Defines (or replaces) a scenario for this session only, as
   * `PUT /__sandbox/scenarios/{name}` does: validated like a scenario file, without
   * `keys`, under a name no loaded scenario has; cleared by a reset, gone with the
   * session. Select it with `useScenario(name)` or `X-Sandbox-Scenario`.
   * @see docs/scenarios.md#scenarios-defined-at-run-time
   */
  defineScenario(scenario: Scenario): { scenario: Scenario; created: boolean }
  /** Removes a scenario the session defined; if it was active, back to the startup one. */
  removeScenario(name: string): boolean
  state(): SandboxState
  /**
   * The report card of the session's client: findings from every request since the
   * session started or was reset, errors first. A well-behaved client gets none above
   * `info`.
   * @example
   * expect(problems(sandbox.session('alice').report())).toEqual([])
   * @see docs/report-card.md
   */
  report(): Report
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
 * @see docs/options.md#createsandbox
 */
export interface Sandbox extends World {
  /**
   * A session's world, made if it is not live (as its first request would): for tests
   * and the browser. `default` is the sandbox itself.
   * @see docs/sessions.md
   */
  session(id: string): World
  /** The live sessions besides the default one, least recently used first. */
  sessions(): SessionInfo[]
  /** Ends a session; false when it was not live. */
  endSession(id: string): boolean
  /** The msw request handlers (yours first); give them to setupServer, setupWorker or getResponse. */
  readonly handlers: RequestHandler[]
  /** Your own handlers (option `handlers`), in front of the sandbox's. */
  readonly overrides: readonly RequestHandler[]
  /**
   * The @msw/data collections of the default data, to use once `await sandbox.ready`
   * has resolved: a read or change before (or while a reset or reload is under way)
   * throws a SandboxError `NOT_READY` saying so, never an empty list.
   */
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
  /**
   * Loads (or replaces) a scenario so it can be selected by name; a built-in's name
   * replaces the built-in, on purpose (scenario files and options loaded at start may
   * not take one: there a copied file is more likely a mistake).
   */
  addScenario(scenario: Scenario): void
  /**
   * Replaces the fixtures and reloads the data they define; created pets are kept, with
   * their ids unless a pet of the new fixtures has it: those move to new ids, which the
   * promise resolves to (`[{ from: 4, to: 6 }]`). Requests sent meanwhile wait for the
   * reload. Written through the store like a reset.
   */
  reloadFixtures(fixtures: Fixtures | undefined): Promise<MovedPet[]>
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
   * A session as a `petstore-sandbox/session@1` export (what `GET /__sandbox/export`
   * gives): its pets, scenario (with those defined at run time), clock and journal. The
   * default session without an id; a session that is not live is an error.
   * @example
   * writeFileSync('alice.json', JSON.stringify(await sandbox.exportSession('alice')))
   * @see docs/sessions-carry.md
   */
  exportSession(id?: string): Promise<SessionExport>
  /**
   * Makes the session `id` from an export (validated: a SandboxError names the field):
   * the same pets, scenario and clock; a fresh journal, windows and bans. `default`
   * replaces the default session's (as the CLI's `--load`); another id must not be live.
   * `source` (a file) is what errors name.
   * @example
   * const alice = await sandbox.importSession('alice-bug', JSON.parse(readFileSync('alice.json', 'utf8')))
   * @see docs/sessions-carry.md
   */
  importSession(id: string, data: unknown, source?: string): Promise<World>
  /**
   * A session's journal as HAR 1.2 (browser dev tools import it), its URLs on `origin`
   * (by default the first full `baseUrl`'s, else `http://localhost`).
   * @example
   * writeFileSync('requests.har', JSON.stringify(sandbox.exportHar()))
   * @see docs/sessions-carry.md
   */
  exportHar(id?: string, origin?: string): Har
  /**
   * Closes the store (option `store`), if it has a `close()`: waits for its pending
   * writes and releases what it holds (`createFileStore`'s lock). Later creates are
   * answered 507 `storage_failed`. Nothing to do without a store.
   * @example
   * const sandbox = createSandbox({ store: createFileStore('state.jsonl') })
   * afterAll(() => sandbox.close())
   * @see docs/persistence.md#a-file-store-in-code
   */
  close(): Promise<void>
}

/**
 * Where a sandbox keeps its default data beyond memory (the CLI's `--persist` file is
 * one). The sandbox writes every change through it, after applying it in memory, in the
 * order of the changes, and waits for it:
 * - a create is answered 201 only once `write` returns (or its promise resolves); if it
 *   throws or rejects, the pet is removed again, never listed nor served, and the request
 *   is answered 507 `storage_failed`. Its id is not reused.
 * - `reset()`, `reloadFixtures()` and `importState()` write a `replace`; if that fails,
 *   they reject with a {@link StoreWriteError} (the data in memory is changed anyway).
 *
 * `state()` reads the data when it is called: it may hold pets whose own create is still
 * being written, never one whose write failed before. A store that writes whole
 * snapshots must therefore write them in the order it received them (a synchronous
 * `write` does). Only the default data goes through the store: datasets of scenarios
 * (such as `empty-store`) and sessions live in memory.
 *
 * @example
 * const changes: StoreChange[] = []
 * const sandbox = createSandbox({ store: { write: (change) => void changes.push(change) } })
 * @see docs/persistence.md#persistence-stores
 */
export interface SandboxStore {
  write(change: StoreChange): void | Promise<void>
  /**
   * Called once by `createSandbox`, with the new sandbox, before it is returned: a store
   * that holds data brings it back here (`sandbox.importState`, which requests wait
   * for). Throwing makes `createSandbox` throw. `createFileStore` (petstore-sandbox/node)
   * restores its file here, and refuses a second sandbox.
   */
  attach?(sandbox: Sandbox): void
  /**
   * Called by a `createSandbox` that throws (a bad option) before any sandbox took the
   * store: let go of what it holds (a file's lock) and stay usable, so the corrected
   * call, with this store or a new one on the same file, can take it. The store stays
   * the caller's: `createSandbox` never closes a store it did not attach.
   */
  release?(): void
  /**
   * Waits for the writes under way, then releases what the store holds (a file's lock);
   * `sandbox.close()` calls it.
   */
  close?(): Promise<void>
}
