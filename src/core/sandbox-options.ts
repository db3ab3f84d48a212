import type { RequestHandler } from 'msw'
import * as z from 'zod/mini'
import { SandboxError } from './common/errors.js'
import { latencySchema } from './scenarios/latency.js'
import {
  MAX_COUNT,
  MAX_JOURNAL_BYTES_LIMIT,
  MAX_JOURNAL_SIZE,
  MAX_LATENCY_MS,
  MAX_PETS_LIMIT,
  MAX_SESSION_TTL_SECONDS,
  MAX_SESSIONS_LIMIT,
} from './common/limits.js'
import type { Sandbox, SandboxOptions, SandboxStore } from './world/sandbox-types.js'
import { petSchema } from './common/schemas.js'
import { LATEST_MS } from './world/sessions.js'
import { STATE_FORMAT } from './data/store.js'
import { closest } from './common/suggest.js'
import { thousands } from './common/text.js'
import { quoted, typeName } from './common/describe-issues.js'

export const DEFAULT_SEED = 42
export const DEFAULT_COUNT = 50
export const DEFAULT_JOURNAL_SIZE = 100

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

/** Every option of createSandbox, for the check of unknown names (a misspelt one did nothing). */
const OPTION_NAMES = [
  'seed',
  'count',
  'fixtures',
  'scenario',
  'scenarios',
  'baseUrl',
  'latency',
  'clock',
  'journalSize',
  'maxJournalBytes',
  'handlers',
  'store',
  'maxSessions',
  'sessionTtlSeconds',
  'idleNow',
  'maxPets',
  'maxTotalPets',
] as const
// The list above must name every option of the type, or a new one would be refused.
type Unlisted = Exclude<keyof SandboxOptions, (typeof OPTION_NAMES)[number]>
const _everyOptionListed: Unlisted extends never ? true : Unlisted = true

const refuse = (reason: string, fix: string) =>
  SandboxError.for('INVALID_OPTION', 'create the sandbox', reason, fix)

/**
 * Refuses options that are not an object, or name an option there is not (a misspelt
 * one would do nothing): `also` names the options of the entry beside the sandbox's
 * (an adapter's `bodyLimit`), which count as known and are suggested too.
 */
export function checkOptionNames(options: unknown, also: readonly string[] = []): void {
  if (typeof options !== 'object' || options === null || Array.isArray(options)) {
    throw refuse(
      `the options must be an object, got ${typeName(options)}`,
      'Pass an object such as { seed: 42 }, or nothing for the defaults.',
    )
  }
  const known = [...OPTION_NAMES, ...also]
  for (const name of Object.keys(options)) {
    if (known.includes(name)) continue
    if (MSW_OPTIONS.includes(name)) {
      throw refuse(
        `${name} is an option of msw's, not of the sandbox`,
        `Give it where msw starts: server.listen({ ${name}: 'error' }) in tests (worker.start() in the browser); msw 2 calls it onUnhandledRequest, msw 3 onUnhandledFrame.`,
      )
    }
    const meant = closest(name, known)
    throw refuse(
      `${JSON.stringify(name.slice(0, 60))} is not an option of the sandbox`,
      `${meant ? `Did you mean ${meant}? ` : ''}The options are ${known.join(', ')} (docs/options.md#options).`,
    )
  }
}

/** Options of msw's `listen()` and `start()` that users give the sandbox by mistake. */
const MSW_OPTIONS = ['onUnhandledRequest', 'onUnhandledFrame']

/**
 * Refuses adapter options (the second argument of `createSandboxMiddleware` and
 * `createSandboxApp`) that are not an object or name none of `known`: a sandbox option
 * there would do nothing, since the sandbox is made already.
 */
export function checkAdapterOptionNames(
  options: unknown,
  known: readonly string[],
  /** Whether the first argument was a sandbox (else options, which may hold them all). */
  ready = true,
): void {
  const refuseHere = (reason: string, fix: string) =>
    SandboxError.for('INVALID_OPTION', 'create the Express adapter', reason, fix)
  if (typeof options !== 'object' || options === null || Array.isArray(options)) {
    throw refuseHere(
      `its options must be an object, got ${typeName(options)}`,
      `Pass an object of ${known.join(', ')}, or nothing.`,
    )
  }
  for (const name of Object.keys(options)) {
    if (known.includes(name)) continue
    const ofSandbox = (OPTION_NAMES as readonly string[]).includes(name)
    const meant = closest(name, known)
    throw refuseHere(
      `${JSON.stringify(name.slice(0, 60))} is not an option of the adapter${ofSandbox ? ` (it is one of the sandbox${ready ? ', which is made already' : ''})` : ''}`,
      !ofSandbox
        ? `${meant ? `Did you mean ${meant}? ` : ''}The adapter's options are ${known.join(', ')}.`
        : ready
          ? `Give ${name} to createSandbox(), or pass all the options in the first argument instead of a sandbox.`
          : `Put ${name} in the first argument, with the other options of the sandbox.`,
    )
  }
}

/**
 * The shape of the options beyond their ranges: an object of known names, whose objects
 * and lists are objects and lists, so a mistake is a message naming the option rather
 * than a TypeError from deep inside, or an option silently ignored. `null` is no option,
 * as `undefined` is (`fixtures: config.fixtures ?? null`).
 */
function checkShape(options: unknown): void {
  checkOptionNames(options)
  const { scenarios, baseUrl, store, clock, fixtures, idleNow } = options as Record<
    string,
    unknown
  >
  if (scenarios != null && !Array.isArray(scenarios)) {
    throw refuse(
      `option scenarios must be an array, got ${typeName(scenarios)}`,
      'Put the scenarios in brackets, even for one: scenarios: [myScenario].',
    )
  }
  if (
    baseUrl != null &&
    typeof baseUrl !== 'string' &&
    !(Array.isArray(baseUrl) && baseUrl.every((url) => typeof url === 'string'))
  ) {
    throw refuse(
      `option baseUrl must be a string or an array of strings, got ${typeName(baseUrl)}`,
      "Pass a base path or address such as '/v1' or 'https://api.example.com/v1'.",
    )
  }
  if (
    store != null &&
    (typeof store !== 'object' ||
      typeof (store as { write?: unknown }).write !== 'function')
  ) {
    throw refuse(
      `option store must be an object with a write(change) method, got ${typeName(store)}`,
      'Pass createFileStore(path) (petstore-sandbox/node), or your own { write(change) { ... } }.',
    )
  }
  if (clock != null) {
    const shape = clockShape.safeParse(clock)
    if (!shape.success) {
      throw refuse(
        `option clock must be { now?, frozen? } with frozen true or false, got ${quoted(clock, 80)}`,
        "Pass e.g. { now: '2030-01-01T00:00:00Z', frozen: true }, or leave it out for real time.",
      )
    }
  }
  if (idleNow != null) checkIdleNow(idleNow)
  if (fixtures != null && (typeof fixtures !== 'object' || Array.isArray(fixtures))) {
    throw refuse(
      `option fixtures must be an object ({ pets, categories, apiKeys }), got ${typeName(fixtures)}`,
      'Pass the fixtures themselves, or (from petstore-sandbox/node) the path of their folder or file.',
    )
  }
}

/** `idleNow` is a function that gives milliseconds (it is called once here to see). */
function checkIdleNow(idleNow: unknown): void {
  const fix =
    'Pass a function returning milliseconds, as Date.now() does: idleNow: () => idle, moving idle past sessionTtlSeconds to expire sessions; or leave it out for real time.'
  if (typeof idleNow !== 'function') {
    throw refuse(`option idleNow must be a function, got ${typeName(idleNow)}`, fix)
  }
  const now: unknown = idleNow()
  if (typeof now !== 'number' || !Number.isFinite(now) || Math.abs(now) > LATEST_MS) {
    throw refuse(
      `option idleNow must return milliseconds (a number a Date can hold), it returned ${quoted(now, 60)}`,
      fix,
    )
  }
}

const clockShape = z.strictObject({
  now: z.optional(z.union([z.string(), z.number(), z.date()])),
  frozen: z.optional(z.boolean()),
})

/** Throws a SandboxError naming the first option out of its range. */
export function checkOptions(options: SandboxOptions): void {
  checkShape(options)
  const checked = optionsSchema.safeParse(options)
  if (checked.success) return
  const issue = checked.error.issues[0]
  throw SandboxError.for(
    'INVALID_OPTION',
    'create the sandbox',
    // Only the first letter: the rule may name fields (minMs).
    `option ${String(issue?.path.join('.'))} ${issue?.message.replace(/^./, (first) => first.toLowerCase())}`,
    `See docs/options.md#options: seed is an integer, count 0 to ${thousands(MAX_COUNT)}, journalSize 0 to ${thousands(MAX_JOURNAL_SIZE)}, maxJournalBytes 0 to ${thousands(MAX_JOURNAL_BYTES_LIMIT)}, maxPets and maxTotalPets 0 to ${thousands(MAX_PETS_LIMIT)}, maxSessions 1 to ${thousands(MAX_SESSIONS_LIMIT)}, sessionTtlSeconds 1 to ${thousands(MAX_SESSION_TTL_SECONDS)}, latency 0 to ${thousands(MAX_LATENCY_MS)} ms or { minMs, maxMs }.`,
  )
}

const persistedStateSchema = z.object({
  format: z.literal(STATE_FORMAT),
  seed: z.number().check(z.int()),
  count: z.number().check(z.int()),
  // The same Pet schema the store validates with: a state file holds nothing else.
  pets: z.array(petSchema),
})
/** Your handlers must be msw request handlers (of msw 2 or 3: what getResponse runs). */
export function checkOverrides(
  handlers: readonly RequestHandler[],
  source: string,
): readonly RequestHandler[] {
  if (!Array.isArray(handlers)) {
    throw SandboxError.for(
      'INVALID_OPTION',
      `read ${source}`,
      `it is ${typeof handlers}, not an array of msw handlers`,
      'Pass an array such as [http.get(...)] (see docs/handlers.md).',
    )
  }
  handlers.forEach((handler, index) => {
    if (typeof (handler as { run?: unknown } | null)?.run !== 'function') {
      throw SandboxError.for(
        'INVALID_OPTION',
        `read ${source}`,
        `${source}[${index}] is not an msw request handler`,
        'Build each one with msw (http.get, http.post, graphql.query, ...); see docs/handlers.md.',
      )
    }
  })
  return [...handlers]
}

/** A persisted state, validated: the pets of the default data. */
export function parsePersistedState(
  state: unknown,
  source: string,
): z.infer<typeof persistedStateSchema> {
  const parsed = persistedStateSchema.safeParse(state)
  if (parsed.success) return parsed.data
  throw SandboxError.for(
    'INVALID_PERSISTED_STATE',
    `restore the state from ${source}`,
    'it is not a petstore-sandbox state file (format "petstore-sandbox/state@1")',
    'Point --persist at a new file, or delete this one to start from the seeded data.',
  )
}

/**
 * Options without those set to null: `null` is no option, as `undefined` is
 * (`fixtures: config.fixtures ?? null`), for the sandbox's options and the adapters'
 * alike. What is not an object is left as it is, for the checks to name.
 */
export function withoutNulls<Options>(options: Options): Options {
  if (typeof options !== 'object' || options === null || Array.isArray(options))
    return options
  if (!Object.values(options).includes(null)) return options
  return Object.fromEntries(
    Object.entries(options).filter(([, value]) => value !== null),
  ) as Options
}

/** Stores given to a sandbox (`attach`): a later createSandbox that fails leaves them alone. */
const attachedStores = new WeakSet<object>()

/** Gives the store to its new sandbox, which then holds it (`attach`, a file's restore). */
export function attachStore(store: SandboxStore, sandbox: Sandbox): void {
  attachedStores.add(store)
  store.attach?.(sandbox)
}

/**
 * The options could not make a sandbox (createSandbox threw, or an entry refused them
 * before it): their store, given to no sandbox, lets go of what it holds (a file's lock)
 * and stays usable. Every entry that refuses options calls it; a store's failure to
 * release is not the caller's error, which is the option's.
 */
export function releaseStoreOf(options: unknown): void {
  const store = (options as { store?: unknown } | null | undefined)?.store
  if (!store || typeof store !== 'object' || attachedStores.has(store)) return
  try {
    ;(store as SandboxStore).release?.()
  } catch {
    // The option error is what the caller needs to hear.
  }
}
