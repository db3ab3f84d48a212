import * as z from 'zod/mini'
import type { Clock, ClockState } from './clock.js'
import { ISO_DATE_RULE, parseIsoDate, toEpochMs } from './clock.js'
import { SandboxError } from './errors.js'
import { checkPetIds } from './ids.js'
import { describeIssues, fieldPath, typeName } from './describe-issues.js'
import type { Journal, JournalEntry } from './journal.js'
import { petSchema, type Pet } from './schemas.js'
import {
  checkProtoNames,
  scenarioSizeSteps,
  parseScenario,
  scenarioSchema,
  type Scenario,
} from './scenarios.js'
import { MAX_JOURNAL_SIZE } from './limits.js'
import { atMostValues, runInSlices, runNow, SliceMeter, type Steps } from './slices.js'
import { thousands } from './text.js'
import { utf8Length } from './journal-budget.js'
import { jsonText } from './reply.js'
import type { $ZodIssue } from 'zod/v4/core'
import { STATE_FORMAT } from './store.js'
import { MAX_DEFINED_SCENARIOS } from './defined-scenarios.js'

/** The format tag of a session as `GET /__sandbox/export` gives it and an import takes it. */
export const SESSION_FORMAT = 'petstore-sandbox/session@1'

/**
 * A session carried out of a sandbox (`GET /__sandbox/export`, `sandbox.exportSession`)
 * and into another (`POST /__sandbox/sessions {"id", "from"}`, `sandbox.importSession`,
 * `--load`): what makes its requests answer the same. Rate-limit windows and bans are
 * not in it (a new session starts with fresh ones), nor the pets of scenarios that
 * bring their own data. The journal is there to read (and as HAR); an import does not
 * put it back.
 * @see docs/sessions-carry.md
 */
export interface SessionExport {
  format: typeof SESSION_FORMAT
  /** The session it was exported from (`default` for the sandbox itself). */
  session: string
  /** The seed and count of the sandbox it came from; its pets are carried whole. */
  seed: number
  count: number
  /** The scenario the session had selected, by name. */
  scenario: string
  /** The scenarios defined at run time for the session, as they were defined. */
  scenarios: Scenario[]
  /** The session's clock: the sandbox time, and whether it stood still. */
  clock: ClockState
  /** The session's pets (its default data), in id order. */
  pets: Pet[]
  /** The session's journal, oldest first, as the journal kept it. */
  journal: JournalEntry[]
  /** False when the journal had dropped requests or cut bodies: `journal` is not all of them. */
  journalComplete: boolean
}

/** What {@link exportWorld} reads of a world. */
export interface ExportSource {
  session: string
  seed: number
  count: number
  /** The name of the scenario the world has selected. */
  scenario: string
  /** Its scenarios defined at run time (none before issue 23's run-time scenarios). */
  scenarios: readonly Scenario[]
  clock: Pick<Clock, 'state'>
  /** Its pets as plain objects, in id order (`PetStore.snapshot()`). */
  pets: Pet[]
  journal: Pick<Journal, 'recent' | 'complete'>
}

/**
 * Builds the export of one world. Copies: what it returns shares nothing with the
 * world, so a caller may keep or change it.
 */
export function exportWorld(source: ExportSource): SessionExport {
  return {
    format: SESSION_FORMAT,
    session: source.session,
    seed: source.seed,
    count: source.count,
    scenario: source.scenario,
    scenarios: source.scenarios.map((scenario) => structuredClone(scenario)),
    clock: source.clock.state(),
    pets: source.pets.map((pet) => ({ ...pet })),
    // recent() is newest first; an export reads in the order things happened.
    journal: source.journal
      .recent()
      .reverse()
      .map((entry) => structuredClone(entry)),
    journalComplete: source.journal.complete,
  }
}

/**
 * About the bytes of an export's text, counted before it is built (a server takes room
 * for them first, transfer-budget.ts): the journal's own count of its entries' bytes
 * (journal-budget.ts) and each pet's name plus what its other fields spell.
 */
export function exportBytes(source: ExportSource, journalBytes: number): number {
  let bytes = 1024 + journalBytes
  for (const scenario of source.scenarios) bytes += JSON.stringify(scenario).length * 3
  // {"id":123456,"name":"","categoryId":12,"status":"available"}, and its comma.
  for (const pet of source.pets) bytes += 64 + utf8Length(pet.name)
  return bytes
}

/**
 * The JSON text of {@link exportWorld}'s export, the same bytes as `JSON.stringify`
 * writes, built in steps that yield after each slice of pets and journal entries.
 * `source.pets` may be the world's own records (frozen: an update replaces one), read
 * and never changed.
 */
export function* exportTextSteps(source: ExportSource): Steps<string> {
  const meter = new SliceMeter()
  const head: Omit<SessionExport, 'pets' | 'journal' | 'journalComplete'> = {
    format: SESSION_FORMAT,
    session: source.session,
    seed: source.seed,
    count: source.count,
    scenario: source.scenario,
    scenarios: [...source.scenarios],
    clock: source.clock.state(),
  }
  // The entries as they are now, oldest first; complete as it is now.
  const entries = source.journal.recent().reverse()
  const complete = source.journal.complete
  let text = `${JSON.stringify(head).slice(0, -1)},"pets":[`
  // A record's text is written once and kept with it (reply.ts): exports share them.
  for (const [index, pet] of source.pets.entries()) {
    text += index === 0 ? jsonText(pet) : `,${jsonText(pet)}`
    if (meter.add(1)) yield meter.take()
  }
  text += '],"journal":['
  for (const [index, entry] of entries.entries()) {
    text += index === 0 ? JSON.stringify(entry) : `,${JSON.stringify(entry)}`
    if (meter.add(4)) yield meter.take()
  }
  return `${text}],"journalComplete":${complete}}`
}

const EXPORT_FIX =
  'Send what GET /__sandbox/export (or sandbox.exportSession()) returned, unchanged; see docs/sessions-carry.md.'

const clockSchema = z.strictObject({
  now: z.string().check(
    z.refine((text) => Number.isFinite(parseIsoDate(text)), {
      message: ISO_DATE_RULE,
    }),
  ),
  frozen: z.boolean(),
})

// Journal entries are read, never restored: their known fields are checked, and fields
// a later version of the sandbox journals (request ids, dropped requests) pass.
const journalEntrySchema = z.object({
  id: z.number().check(z.int(), z.gte(1)),
  at: z.string(),
  method: z.string(),
  path: z.string(),
  status: z.number().check(z.int()),
  durationMs: z.number().check(z.gte(0)),
  scenario: z.string(),
  key: z.optional(z.string()),
  plan: z.optional(z.string()),
  operation: z.optional(z.string()),
  code: z.optional(z.string()),
  message: z.optional(z.string()),
  rateLimit: z.optional(
    z.object({
      limit: z.number(),
      remaining: z.number(),
      reset: z.number(),
      retryAfter: z.optional(z.number()),
    }),
  ),
  headers: z.optional(z.record(z.string(), z.string())),
  body: z.optional(z.string()),
  bodyTruncated: z.optional(z.literal(true)),
  deprecated: z.optional(z.literal(true)),
  ignoredRetryAfter: z.optional(z.literal(true)),
  override: z.optional(z.literal(true)),
  dropped: z.optional(z.literal(true)),
  session: z.optional(z.string()),
})

// Unknown top-level fields are ignored, so a reader of @1 takes what a later @1 adds.
const sessionExportSchema = z.object({
  format: z.literal(SESSION_FORMAT),
  session: z.string(),
  seed: z.number().check(z.int()),
  count: z.number().check(z.int(), z.gte(0)),
  scenario: z.string().check(z.minLength(1)),
  scenarios: z.array(scenarioSchema).check(z.maxLength(MAX_DEFINED_SCENARIOS)),
  clock: clockSchema,
  pets: z.array(petSchema),
  // Optional on import, which does not restore them: an export over the 16 MiB an
  // import takes goes in without its journal.
  journal: z.optional(z.array(journalEntrySchema).check(z.maxLength(MAX_JOURNAL_SIZE))),
  journalComplete: z.optional(z.boolean()),
})

/**
 * The same with its lists unread: parsed first, then each item of each list alone, in
 * slices, stopping at the first wrong one (zod gathers every issue of a value, and a
 * list of 20,000 wrong items overflowed its stack: a 500).
 */
const exportShellSchema = z.object({
  ...sessionExportSchema.shape,
  scenarios: z.array(z.unknown()).check(z.maxLength(MAX_DEFINED_SCENARIOS)),
  pets: z.array(z.unknown()),
  journal: z.optional(z.array(z.unknown()).check(z.maxLength(MAX_JOURNAL_SIZE))),
})

/**
 * The lists of an export, each item checked alone: its schema, the most values (fields,
 * at any depth) an item may hold, and its units of work in a slice.
 */
const LISTS = [
  { name: 'pets', schema: petSchema, values: 32, units: 1, what: 'a pet' },
  {
    name: 'journal',
    schema: journalEntrySchema,
    values: 1_000,
    units: 4,
    what: 'a journal entry',
  },
  // Bounded by scenarioSizeSteps.
  { name: 'scenarios', schema: scenarioSchema, values: 0, units: 8, what: 'a scenario' },
] as const

/** How {@link checkSessionExport} names fields and bounds ids. */
export interface ExportCheckOptions {
  /** What the export is a field of: `from` in a request body; '' for a file's own fields. */
  root?: string
  /** The sandbox's `maxPets`: the pets' ids must leave room for that many creates. */
  maxPets?: number
}

export type CheckedExport =
  { ok: true; value: SessionExport } | { ok: false; message: string }

/**
 * Checks unknown data as a session export. The message of a refusal names the field
 * (`from.format`, `from.pets[3].name`) and the rule, without a fix: the callers add
 * theirs (an API error, a SandboxError, the CLI's exit). All at once: a server checks a
 * request's export with {@link checkSessionExportInSlices}.
 */
export function checkSessionExport(
  value: unknown,
  options: ExportCheckOptions = {},
): CheckedExport {
  return runNow(checkExportSteps(value, options))
}

/** {@link checkSessionExport} in slices, yielding to other requests between them. */
export function checkSessionExportInSlices(
  value: unknown,
  options: ExportCheckOptions = {},
): Promise<CheckedExport> {
  return runInSlices(checkExportSteps(value, options))
}

/** The steps of {@link checkSessionExport}: it yields after each slice of items checked. */
export function* checkExportSteps(
  value: unknown,
  options: ExportCheckOptions = {},
): Steps<CheckedExport> {
  const root = options.root ?? 'from'
  const field = (path: string) => (root === '' ? path : `${root}.${path}`)
  const problem = (message: string): CheckedExport => ({ ok: false, message })
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    return problem(
      `${root || 'the export'} must be an object, the JSON of a session export ("format": "${SESSION_FORMAT}"), got ${typeName(value)}`,
    )
  }
  // The format first and alone: another format's fields would only be noise.
  const format = (value as { format?: unknown }).format
  if (format !== SESSION_FORMAT) {
    const given = format === undefined ? 'is missing' : `is ${JSON.stringify(format)}`
    const hint =
      format === STATE_FORMAT
        ? ' (that is a --persist state file: give it to --persist, or export a session with GET /__sandbox/export)'
        : typeof format === 'string' && format.startsWith('petstore-sandbox/session@')
          ? ' (an export of another version of petstore-sandbox: export it again with this one)'
          : ''
    return problem(`${field('format')} ${given}; it must be "${SESSION_FORMAT}"${hint}`)
  }
  // Parsed inside an object named after the root, so zod's paths read `from.pets[3].name`.
  const wrap = <Schema extends z.ZodMiniType>(schema: Schema) =>
    root === '' ? schema : z.object({ [root]: schema })
  const describe = (issues: readonly $ZodIssue[]) =>
    describeIssues(issues.slice(0, 3), root, wrap(sessionExportSchema))
  const shell = exportShellSchema.safeParse(value, { reportInput: true })
  if (!shell.success) {
    const issues = shell.error.issues.map((issue) =>
      root === '' ? issue : { ...issue, path: [root, ...issue.path] },
    )
    return problem(describe(issues))
  }
  const meter = new SliceMeter()
  const lists: Record<string, unknown[]> = {}
  for (const list of LISTS) {
    const items = shell.data[list.name]
    if (items === undefined) continue
    const checked: unknown[] = []
    for (const [index, item] of items.entries()) {
      const at = [...(root === '' ? [] : [root]), list.name, index]
      if (list.name === 'scenarios') {
        // A record naming "__proto__", which the parse would drop.
        try {
          checkProtoNames(item, '')
        } catch (error) {
          return problem(`${fieldPath(at, root)}.${reasonOf(error)}`)
        }
        // Its size, and its pets one by one.
        const wrong = yield* scenarioSizeSteps(item, at, describe)
        if (wrong !== undefined) return problem(wrong)
      } else if (!atMostValues(item, list.values)) {
        return problem(
          `${fieldPath(at, root)} holds more than ${thousands(list.values)} values, more than ${list.what} has`,
        )
      }
      const parsed = list.schema.safeParse(item, { reportInput: true })
      if (!parsed.success) {
        return problem(
          describe(
            parsed.error.issues.map((issue) => ({
              ...issue,
              path: [...at, ...issue.path],
            })),
          ),
        )
      }
      checked.push(parsed.data)
      if (meter.add(list.units)) yield meter.take()
    }
    lists[list.name] = checked
  }
  const read = { ...shell.data, ...lists } as z.infer<typeof sessionExportSchema>
  const data: SessionExport = {
    ...read,
    journal: read.journal ?? [],
    // Without its journal, an export has not all of it.
    journalComplete: read.journal !== undefined && read.journalComplete !== false,
  }
  try {
    checkPetIds(data.pets, {
      code: 'INVALID_SESSION_EXPORT',
      action: 'check the export',
      field: field('pets'),
      maxPets: options.maxPets,
    })
    toEpochMs(data.clock.now, field('clock.now'))
  } catch (error) {
    return problem(reasonOf(error))
  }
  const names = new Set<string>()
  for (const [index, scenario] of data.scenarios.entries()) {
    const at = field(`scenarios[${index}]`)
    // Keys are global (docs/scenarios.md): a scenario made at run time has none.
    if (scenario.keys !== undefined) {
      return problem(
        `${at}.keys must be left out: a scenario defined at run time has no keys of its own`,
      )
    }
    if (names.has(scenario.name)) {
      return problem(
        `${at}.name "${scenario.name}" is defined twice in ${field('scenarios')}`,
      )
    }
    names.add(scenario.name)
    try {
      // The checks beyond the schema (ids of its pets, auth fields that exclude each other).
      parseScenario(scenario, at, { maxPets: options.maxPets })
    } catch (error) {
      return problem(`${at}.${reasonOf(error)}`)
    }
  }
  return { ok: true, value: data }
}

/** The "<reason>" of a SandboxError's "Failed to <action>: <reason>. <fix>" message. */
function reasonOf(error: unknown): string {
  if (!(error instanceof SandboxError)) throw error
  const text = error.message.replace(/^Failed to [^:]*: /, '')
  return text.slice(0, text.indexOf('. ') === -1 ? undefined : text.indexOf('. '))
}

/**
 * Validates unknown data as a session export, or throws a SandboxError
 * (`INVALID_SESSION_EXPORT`) naming `source` (a file, `importSession()`) and the field.
 *
 * @example
 * const data = parseSessionExport(JSON.parse(text), 'alice-session.json', { root: '' })
 */
export function parseSessionExport(
  value: unknown,
  source: string,
  options: ExportCheckOptions = {},
): SessionExport {
  return exportOrThrow(checkSessionExport(value, options), source)
}

/** {@link parseSessionExport} in slices, yielding to other work between them. */
export async function parseSessionExportInSlices(
  value: unknown,
  source: string,
  options: ExportCheckOptions = {},
): Promise<SessionExport> {
  return exportOrThrow(await checkSessionExportInSlices(value, options), source)
}

function exportOrThrow(checked: CheckedExport, source: string): SessionExport {
  if (checked.ok) return checked.value
  throw SandboxError.for(
    'INVALID_SESSION_EXPORT',
    `import the session from ${source}`,
    checked.message,
    EXPORT_FIX.replace('Send', 'Use'),
  )
}

/** The fix a 400 of the import adds to the message of {@link checkSessionExport}. */
export const SESSION_EXPORT_FIX = EXPORT_FIX

/** What {@link restoreWorld} changes of a world. */
export interface RestoreTarget {
  /**
   * Throws what defining these scenarios and taking these pets would: a definition
   * refused, or the pets and what the scenarios seed past the sandbox's pet limits
   * (StorageFullError). Changes nothing.
   */
  checkImport(pets: readonly Pet[], scenarios: readonly Scenario[]): void
  /** Replaces its pets, counting them against the quota at once. */
  restorePets(pets: Pet[]): Promise<void>
  clock: Clock
  /** Whether a scenario of this name is loaded for every session (built in, files, options). */
  hasScenario(name: string): boolean
  /**
   * Defines these for this world only, as `PUT /__sandbox/scenarios/{name}` does, once
   * `checkImport` passed them as a whole.
   */
  defineScenarios(scenarios: readonly Scenario[]): void
  useScenario(name: string): void
}

/**
 * Makes a world what the export says: its run-time scenarios defined, its scenario
 * selected, its clock set (and frozen if it was), its pets restored. Its journal, rate-
 * limit windows and bans are left as they are (a new session's: empty, fresh). Throws a
 * SandboxError, before it changes anything, when the selected scenario is neither
 * loaded here nor carried.
 */
export async function restoreWorld(
  target: RestoreTarget,
  data: SessionExport,
  source: string,
): Promise<void> {
  // Checked before anything changes: a carried definition not taking a loaded name,
  // each definable, and the pets with what the definitions seed within the sandbox's
  // limits (a full quota is a 507, as for a create).
  for (const [index, scenario] of data.scenarios.entries()) {
    if (target.hasScenario(scenario.name)) {
      throw SandboxError.for(
        'INVALID_SESSION_EXPORT',
        `import the session from ${source}`,
        `its scenarios[${index}] is named "${scenario.name}", a scenario loaded in this sandbox, which a session cannot define`,
        'Rename it in the export (and its "scenario" if selected), or import into a sandbox that does not load that scenario.',
      )
    }
  }
  const carried = data.scenarios.some((scenario) => scenario.name === data.scenario)
  if (!carried && !target.hasScenario(data.scenario)) {
    throw SandboxError.for(
      'INVALID_SESSION_EXPORT',
      `import the session from ${source}`,
      `its scenario "${data.scenario}" is not loaded in this sandbox, nor defined in the export's scenarios`,
      `Load that scenario (--scenario ./${data.scenario}.json or the scenarios option) before importing.`,
    )
  }
  target.checkImport(data.pets, data.scenarios)
  // Applied as checked, with nothing awaited before the pets and the definitions are
  // counted (a second import is checked against this one): the pets first, so that the
  // definitions, checked as a whole, are not judged one by one against the pets they
  // replace.
  const restoring = target.restorePets(data.pets)
  target.defineScenarios(data.scenarios)
  target.useScenario(data.scenario)
  const { clock } = target
  if (data.clock.frozen) clock.freeze(data.clock.now)
  else {
    clock.unfreeze()
    clock.set(data.clock.now)
  }
  await restoring
}
