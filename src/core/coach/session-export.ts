import type { Clock, ClockState } from '../data/clock.js'
import type { Journal, JournalEntry } from './journal.js'
import type { Pet } from '../common/schemas.js'
import type { Scenario } from '../scenarios/scenarios.js'
import { joinInSlices, SliceMeter, type Steps } from '../common/slices.js'
import { petTextBytes } from '../data/pet-seed.js'
import { entryChars } from './journal-budget.js'
import { jsonText } from '../http/reply.js'

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
  /**
   * About the bytes of their JSON (`PetStore.textBytes()`, counted as pets come and
   * go); read pet by pet when absent.
   */
  petBytes?: number
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
 * About the bytes of an export's text, known before it is built (a server takes room
 * for them first, transfer-budget.ts): counts kept as things change, not read now: the
 * journal's of its entries' bytes (journal-budget.ts), the store's of its pets' bytes
 * (`petBytes`), and those of the scenarios defined.
 */
export function exportBytes(source: ExportSource, journalBytes: number): number {
  let bytes = 1024 + journalBytes
  for (const scenario of source.scenarios) bytes += scenarioBytes(scenario)
  if (source.petBytes !== undefined) return bytes + source.petBytes
  for (const pet of source.pets) bytes += petTextBytes(pet)
  return bytes
}

/** What {@link scenarioBytes} counted of each scenario, once (a definition does not change). */
const scenarioSizes = new WeakMap<Scenario, number>()

/**
 * About the bytes of a scenario's JSON, counted once: its pets (`data.pets`, as many as
 * an import carried) pet by pet, the rest (at most 10,000 values) as written, each
 * character up to three bytes.
 */
function scenarioBytes(scenario: Scenario): number {
  let bytes = scenarioSizes.get(scenario)
  if (bytes !== undefined) return bytes
  const pets = scenario.data?.pets ?? []
  const rest = scenario.data
    ? { ...scenario, data: { ...scenario.data, pets: [] } }
    : scenario
  bytes = JSON.stringify(rest).length * 3
  for (const pet of pets) bytes += petTextBytes(pet)
  scenarioSizes.set(scenario, bytes)
  return bytes
}

/**
 * The JSON text of {@link exportWorld}'s export, the same bytes as `JSON.stringify`
 * writes, in pieces (one per slice, joinInSlices), built in steps that yield after each
 * slice of pets and journal entries.
 * `source.pets` may be the world's own records (frozen: an update replaces one), read
 * and never changed.
 */
export function* exportTextSteps(source: ExportSource): Steps<string[]> {
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
  // A record's text is written once and kept with it (reply.ts): exports share them.
  const pets = yield* joinInSlices(source.pets, jsonText, 1, meter)
  // An entry: 4 units, and one per 256 characters of its path, body and headers.
  const journal = yield* joinInSlices(
    entries,
    (entry) => JSON.stringify(entry),
    (entry) => 4 + (entryChars(entry) >> 8),
    meter,
  )
  return [
    `${JSON.stringify(head).slice(0, -1)},"pets":[`,
    ...pets,
    '],"journal":[',
    ...journal,
    `],"journalComplete":${complete}}`,
  ]
}
