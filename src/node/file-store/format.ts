import { SandboxError } from '../../core/common/errors.js'
import { checkPetIds } from '../../core/common/ids.js'
import { petSchema, type Pet } from '../../core/common/schemas.js'
import { STATE_FORMAT, type PersistedState } from '../../core/data/store.js'
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
  /**
   * A last line with no newline that holds a whole pet (a file saved by an editor that
   * leaves the last newline out): kept, and the newline added before the next append.
   */
  unterminated?: { line: number }
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

/** How a state file is refused: `reason` says what is wrong; `line` a line to mend. */
type Refuse = (reason: string, line?: number) => SandboxError

function refuser(file: string, option: PathOption): Refuse {
  return (reason, line) =>
    SandboxError.for(
      'INVALID_PERSISTED_STATE',
      `restore the state from ${file}`,
      `${reason}, so it was left untouched`,
      line === undefined
        ? wholeFileFix(option)
        : `Mend line ${line} (or remove it: the pet it holds is lost), then start again; or ${useAnother(option, 'a new file')}.`,
    )
}

/** The fix of a file that no one line mends. */
function wholeFileFix(option: PathOption) {
  return `${capitalized(useAnother(option, 'a new file'))}, or delete this one to start from the seeded data.`
}

const UTF8 = new TextDecoder('utf-8', { fatal: true })
const NEWLINE = 0x0a

/**
 * A state file's bytes as text. JSON lines are UTF-8: a line with other bytes (an
 * editor that saved it as Latin-1) is refused, naming it, since its characters could
 * not be told, nor its bytes counted as the writer counts them. Only a last line
 * without a newline may hold a character cut in half (a write cut short there).
 */
export function decodeStateFile(
  bytes: Uint8Array,
  file: string,
  option: PathOption = 'createFileStore()',
): string {
  const end = bytes.lastIndexOf(NEWLINE) + 1
  const tail = new TextDecoder().decode(bytes.subarray(end))
  try {
    return UTF8.decode(bytes.subarray(0, end)) + tail
  } catch {
    let start = 0
    for (let line = 1; ; line++) {
      const next = bytes.indexOf(NEWLINE, start) + 1
      try {
        UTF8.decode(bytes.subarray(start, next))
      } catch {
        throw refuser(file, option)(
          `line ${line} is not UTF-8 text (a byte of another encoding, such as Latin-1 saved by an editor)`,
          line,
        )
      }
      start = next
    }
  }
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
  const refuse = refuser(file, option)
  const ids = { action: `restore the state from ${file}`, fix: wholeFileFix(option) }
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
  if (
    isObject(header) &&
    typeof header.format === 'string' &&
    header.format !== STATE_FORMAT &&
    header.format.startsWith('petstore-sandbox/state@')
  ) {
    throw refuse(
      `its header (line 1) names the format "${header.format.slice(0, 40)}", which this version of petstore-sandbox does not read (it reads "${STATE_LOG_FORMAT}" and "${STATE_FORMAT}"): a newer version wrote it. Upgrade petstore-sandbox to serve it`,
    )
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
  refuse: Refuse,
  ids: { action: string; fix: string },
): LoadedState {
  if (!isInteger(header.seed) || !isInteger(header.count)) {
    throw refuse('its header (line 1) has no integer seed and count', 1)
  }
  const lines = text.split('\n')
  // A file that ends with a newline splits into a last empty string.
  const last = lines.pop() as string
  let torn: LoadedState['torn']
  let unterminated: LoadedState['unterminated']
  if (last !== '') {
    if (lines.length === 0) throw refuse('its header (line 1) is cut short')
    const whole = wholePet(last)
    if (whole) {
      lines.push(last)
      unterminated = { line: lines.length }
    } else torn = { line: lines.length + 1, bytes: Buffer.byteLength(last) }
  }
  const pets: Pet[] = []
  /** The line of each pet, for messages. */
  const lineOf: number[] = []
  for (let index = 1; index < lines.length; index++) {
    const line = lines[index] as string
    // A blank line (an editor's, at the end) holds nothing: skipped.
    if (line.trim() === '') continue
    let value: unknown
    try {
      value = JSON.parse(line)
    } catch (error) {
      throw refuse(
        `line ${index + 1} is not valid JSON (${(error as Error).message})`,
        index + 1,
      )
    }
    const parsed = petSchema.safeParse(value)
    if (!parsed.success)
      throw refuse(`line ${index + 1} is not a pet (${describe(parsed)})`, index + 1)
    pets.push(parsed.data)
    lineOf.push(index + 1)
  }
  checkPetIds(pets, {
    ...ids,
    code: 'INVALID_PERSISTED_STATE',
    field: 'pets',
    where: (index) => `line ${lineOf[index]}'s id`,
  })
  // Appended pets follow the rewritten ones in id order already; a foreign file may not.
  const sorted = pets.every((pet, index) => index === 0 || pets[index - 1]!.id < pet.id)
  if (!sorted) pets.sort((left, right) => left.id - right.id)
  return {
    state: { format: STATE_FORMAT, seed: header.seed, count: header.count, pets },
    version: 2,
    ...(torn ? { torn } : {}),
    ...(unterminated ? { unterminated } : {}),
  }
}

/**
 * Whether a last line without its newline is a whole pet. A line the writer cut short
 * never is: its lines end `}` and then the newline, so a prefix that parses is the whole
 * object; a character cut in half (decoded as U+FFFD) is not kept.
 */
function wholePet(line: string): boolean {
  if (line.includes('\uFFFD')) return false
  try {
    return petSchema.safeParse(JSON.parse(line)).success
  } catch {
    return false
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
