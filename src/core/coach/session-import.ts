import * as z from 'zod/mini'
import { ISO_DATE_RULE, parseIsoDate, toEpochMs } from '../data/clock.js'
import { SandboxError } from '../common/errors.js'
import { PetIdCheck } from '../common/ids.js'
import { describeIssues, fieldPath, typeName } from '../common/describe-issues.js'
import { petSchema, type Pet } from '../common/schemas.js'
import {
  checkProtoNames,
  scenarioSizeSteps,
  parseScenario,
  scenarioSchema,
  type Scenario,
} from '../scenarios/scenarios.js'
import { MAX_JOURNAL_SIZE } from '../common/limits.js'
import {
  atMostValues,
  runInSlices,
  runNow,
  SliceMeter,
  type Steps,
} from '../common/slices.js'
import { thousands } from '../common/text.js'
import type { $ZodIssue } from 'zod/v4/core'
import { STATE_FORMAT } from '../data/store.js'
import { MAX_DEFINED_SCENARIOS } from '../scenarios/defined-scenarios.js'

import { SESSION_FORMAT, type SessionExport } from './session-export.js'

// Taking a session in (POST /__sandbox/sessions with `from`, `--load`,
// sandbox.importSession): the export checked item by item, in slices, stopping at the
// first wrong one; session-restore.ts then makes a world what it says. The other half,
// building an export, is session-export.ts.

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
  // A pet's check (its size, its schema, its id) is some 4 µs, an entry's some 8.
  { name: 'pets', schema: petSchema, values: 32, units: 4, what: 'a pet' },
  {
    name: 'journal',
    schema: journalEntrySchema,
    values: 1_000,
    units: 8,
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
  const wrongFormat = formatProblem(value, root, field)
  if (wrongFormat !== undefined) return problem(wrongFormat)
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
  const naming: ExportNaming = { root, field, describe }
  const lists = yield* checkListsSteps(shell.data, naming, options.maxPets)
  if (typeof lists === 'string') return problem(lists)
  const read = { ...shell.data, ...lists } as z.infer<typeof sessionExportSchema>
  const data: SessionExport = {
    ...read,
    journal: read.journal ?? [],
    // Without its journal, an export has not all of it.
    journalComplete: read.journal !== undefined && read.journalComplete !== false,
  }
  try {
    toEpochMs(data.clock.now, field('clock.now'))
  } catch (error) {
    return problem(reasonOf(error))
  }
  const wrongScenario = scenariosProblem(data.scenarios, field, options.maxPets)
  return wrongScenario === undefined ? { ok: true, value: data } : problem(wrongScenario)
}

/** How the checks of an export name its fields (`from.pets[3].name`) and describe issues. */
interface ExportNaming {
  /** What the export is a field of ({@link ExportCheckOptions}); '' for a file's own. */
  root: string
  /** The name of a field of the export. */
  field(path: string): string
  /** The first issues of zod's, their paths from the root. */
  describe(issues: readonly $ZodIssue[]): string
}

/**
 * Why `value` is not an export of this format: not an object, or another format (told
 * first and alone: another format's fields would only be noise); undefined when it is.
 */
function formatProblem(
  value: unknown,
  root: string,
  field: (path: string) => string,
): string | undefined {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    return `${root || 'the export'} must be an object, the JSON of a session export ("format": "${SESSION_FORMAT}"), got ${typeName(value)}`
  }
  const format = (value as { format?: unknown }).format
  if (format === SESSION_FORMAT) return undefined
  const given = format === undefined ? 'is missing' : `is ${JSON.stringify(format)}`
  const hint =
    format === STATE_FORMAT
      ? ' (that is a --persist state file: give it to --persist, or export a session with GET /__sandbox/export)'
      : typeof format === 'string' && format.startsWith('petstore-sandbox/session@')
        ? ' (an export of another version of petstore-sandbox: export it again with this one)'
        : ''
  return `${field('format')} ${given}; it must be "${SESSION_FORMAT}"${hint}`
}

/**
 * Checks each item of each of the export's lists alone, in slices, stopping at the first
 * wrong one: the lists as checked, or what is wrong (a pet's id told once every list
 * passed, as a check of them all at the end told it).
 */
function* checkListsSteps(
  shell: z.infer<typeof exportShellSchema>,
  { root, field, describe }: ExportNaming,
  maxPets: number | undefined,
): Steps<Record<string, unknown[]> | string> {
  const meter = new SliceMeter()
  const lists: Record<string, unknown[]> = {}
  // The pets' ids, checked as each pet is.
  const ids = new PetIdCheck({
    code: 'INVALID_SESSION_EXPORT',
    action: 'check the export',
    field: field('pets'),
    maxPets,
  })
  let wrongId: string | undefined
  for (const list of LISTS) {
    const items = shell[list.name]
    if (items === undefined) continue
    const checked: unknown[] = []
    for (const [index, item] of items.entries()) {
      const at = [...(root === '' ? [] : [root]), list.name, index]
      const wrong = yield* itemSizeSteps(list, item, at, root, describe)
      if (wrong !== undefined) return wrong
      const parsed = list.schema.safeParse(item, { reportInput: true })
      if (!parsed.success) {
        return describe(
          parsed.error.issues.map((issue) => ({
            ...issue,
            path: [...at, ...issue.path],
          })),
        )
      }
      checked.push(parsed.data)
      if (list.name === 'pets' && wrongId === undefined) {
        try {
          ids.add(parsed.data as Pet, index)
        } catch (error) {
          wrongId = reasonOf(error)
        }
      }
      if (meter.add(list.units)) yield meter.take()
    }
    lists[list.name] = checked
  }
  return wrongId ?? lists
}

/**
 * Why an item of a list is larger than one can be, before its schema is: a scenario
 * naming "__proto__" (which the parse would drop), or its size and its pets one by one;
 * another item's count of values. Undefined when it is not.
 */
function* itemSizeSteps(
  list: (typeof LISTS)[number],
  item: unknown,
  at: PropertyKey[],
  root: string,
  describe: ExportNaming['describe'],
): Steps<string | undefined> {
  if (list.name === 'scenarios') {
    try {
      checkProtoNames(item, '')
    } catch (error) {
      return `${fieldPath(at, root)}.${reasonOf(error)}`
    }
    return yield* scenarioSizeSteps(item, at, describe)
  }
  if (atMostValues(item, list.values)) return undefined
  return `${fieldPath(at, root)} holds more than ${thousands(list.values)} values, more than ${list.what} has`
}

/**
 * What is wrong with the export's scenarios beyond their schema: keys of their own, a
 * name defined twice, what defining one would refuse (ids of its pets, auth fields that
 * exclude each other); undefined when nothing is.
 */
function scenariosProblem(
  scenarios: readonly Scenario[],
  field: (path: string) => string,
  maxPets: number | undefined,
): string | undefined {
  const names = new Set<string>()
  for (const [index, scenario] of scenarios.entries()) {
    const at = field(`scenarios[${index}]`)
    // Keys are global (docs/scenarios.md): a scenario made at run time has none.
    if (scenario.keys !== undefined) {
      return `${at}.keys must be left out: a scenario defined at run time has no keys of its own`
    }
    if (names.has(scenario.name)) {
      return `${at}.name "${scenario.name}" is defined twice in ${field('scenarios')}`
    }
    names.add(scenario.name)
    try {
      parseScenario(scenario, at, { maxPets })
    } catch (error) {
      return `${at}.${reasonOf(error)}`
    }
  }
  return undefined
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
