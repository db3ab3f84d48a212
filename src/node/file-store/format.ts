import { SandboxError } from '../../core/errors.js'
import { checkPetIds } from '../../core/ids.js'
import { petSchema, type Pet } from '../../core/schemas.js'
import { STATE_FORMAT, type PersistedState } from '../../core/store.js'
import { capitalized, useAnother, type PathOption } from './wording.js'

/**
 * The format of the `--persist` file since issue 14: JSON lines. A header line, then one
 * line per pet, in id order after a rewrite, creates appended after it:
 *
 *     {"format":"petstore-sandbox/state@2","seed":42,"count":50}
 *     {"id":1,"name":"Rex","categoryId":2,"status":"available"}
 *     ...
 *
 * A create appends one line (a group of creates one write), so its cost does not grow
 * with the file. The whole-JSON files of `petstore-sandbox/state@1` still load; the
 * first write (the restore at start) rewrites them in this format.
 */
export const STATE_LOG_FORMAT = 'petstore-sandbox/state@2'

/** What a state file held, and what was wrong but harmless. */
export interface LoadedState {
  state: PersistedState
  /** 1 for a whole-JSON file (rewritten in the new format on the first write), else 2. */
  version: 1 | 2
  /** A last line with no newline: a write cut short by a kill, never acknowledged. */
  torn?: { line: number; bytes: number }
}

export function encodeHeader(state: { seed: number; count: number }) {
  return `${JSON.stringify({ format: STATE_LOG_FORMAT, seed: state.seed, count: state.count })}\n`
}

/** One pet as a line: its fields in the schema's order, nothing else. */
export function encodePet(pet: Pet) {
  const line: Pet = { id: pet.id, name: pet.name, categoryId: pet.categoryId }
  if (pet.status !== undefined) line.status = pet.status
  return `${JSON.stringify(line)}\n`
}

/** A whole state file's content (a rewrite). */
export function encodeState(state: PersistedState) {
  let text = encodeHeader(state)
  for (const pet of state.pets) text += encodePet(pet)
  return text
}

/**
 * Parses a state file of either format. Throws a SandboxError (INVALID_PERSISTED_STATE)
 * naming the file (and the line, the id) for anything but a torn last line, which is
 * reported and dropped. `option` words the fix (the CLI's flag or createFileStore()).
 */
export function parseStateFile(
  text: string,
  file: string,
  option: PathOption = 'createFileStore()',
): LoadedState {
  const fix = `${capitalized(useAnother(option, 'a new file'))}, or delete this one to start from the seeded data.`
  const refuse = (reason: string) =>
    SandboxError.for(
      'INVALID_PERSISTED_STATE',
      `restore the state from ${file}`,
      `${reason}, so it was left untouched`,
      fix,
    )
  const ids = { action: `restore the state from ${file}`, fix }
  if (text.trim() === '') throw refuse('it is empty')
  const firstEnd = text.indexOf('\n')
  const first = firstEnd === -1 ? text : text.slice(0, firstEnd)
  let header: unknown
  try {
    header = JSON.parse(first)
  } catch {
    // Not one JSON value on the first line: a whole-JSON (state@1) file, or garbage.
  }
  if (isObject(header) && header.format === STATE_LOG_FORMAT) {
    return parseLog(text, header, refuse, ids)
  }
  let whole: unknown
  try {
    whole = JSON.parse(text)
  } catch (error) {
    throw refuse(`it is not valid JSON (${(error as Error).message})`)
  }
  if (!isObject(whole) || whole.format !== STATE_FORMAT) {
    throw refuse(
      `it is not a petstore-sandbox state file (format "${STATE_LOG_FORMAT}" or "${STATE_FORMAT}")`,
    )
  }
  if (!isInteger(whole.seed) || !isInteger(whole.count) || !Array.isArray(whole.pets)) {
    throw refuse(
      `it is not a petstore-sandbox state file (format "${STATE_FORMAT}" needs seed, count and pets)`,
    )
  }
  const pets = whole.pets.map((value: unknown, index: number) => {
    const parsed = petSchema.safeParse(value)
    if (!parsed.success) throw refuse(`pets[${index}] is not a pet (${describe(parsed)})`)
    return parsed.data
  })
  checkPetIds(pets, { ...ids, code: 'INVALID_PERSISTED_STATE', field: 'pets' })
  return {
    state: { format: STATE_FORMAT, seed: whole.seed, count: whole.count, pets },
    version: 1,
  }
}

function parseLog(
  text: string,
  header: Record<string, unknown>,
  refuse: (reason: string) => SandboxError,
  ids: { action: string; fix: string },
): LoadedState {
  if (!isInteger(header.seed) || !isInteger(header.count)) {
    throw refuse('its header (line 1) has no integer seed and count')
  }
  const lines = text.split('\n')
  // A file that ends with a newline splits into a last empty string.
  const last = lines.pop() as string
  let torn: LoadedState['torn']
  if (last !== '') {
    if (lines.length === 0) throw refuse('its header (line 1) is cut short')
    torn = { line: lines.length + 1, bytes: Buffer.byteLength(last) }
  }
  const pets: Pet[] = []
  for (let index = 1; index < lines.length; index++) {
    const line = lines[index] as string
    let value: unknown
    try {
      value = JSON.parse(line)
    } catch (error) {
      throw refuse(`line ${index + 1} is not valid JSON (${(error as Error).message})`)
    }
    const parsed = petSchema.safeParse(value)
    if (!parsed.success)
      throw refuse(`line ${index + 1} is not a pet (${describe(parsed)})`)
    pets.push(parsed.data)
  }
  checkPetIds(pets, {
    ...ids,
    code: 'INVALID_PERSISTED_STATE',
    field: 'pets',
    where: (index) => `line ${index + 2}'s id`,
  })
  // Appended pets follow the rewritten ones in id order already; a foreign file may not.
  const sorted = pets.every((pet, index) => index === 0 || pets[index - 1]!.id < pet.id)
  if (!sorted) pets.sort((left, right) => left.id - right.id)
  return {
    state: { format: STATE_FORMAT, seed: header.seed, count: header.count, pets },
    version: 2,
    ...(torn ? { torn } : {}),
  }
}

function describe(result: {
  error?: { issues: Array<{ path: PropertyKey[]; message: string }> }
}) {
  const issue = result.error?.issues[0]
  if (!issue) return 'invalid'
  const path = issue.path.map(String).join('.')
  return `${path === '' ? '' : `${path}: `}${issue.message}`
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}

function isInteger(value: unknown): value is number {
  return typeof value === 'number' && Number.isInteger(value)
}
