import { SandboxError, type SandboxErrorCode } from './errors.js'
import { DEFAULT_MAX_PETS } from './limits.js'

/**
 * The largest id a file (state, fixtures, scenario data) may give a pet: room is left
 * for `maxPets` creates after it, so an id the sandbox assigns never passes 2^53 - 1.
 */
export function maxFileId(maxPets = DEFAULT_MAX_PETS): number {
  return Number.MAX_SAFE_INTEGER - maxPets
}

/** Where the pets being checked come from, for the message. */
export interface IdSource {
  /** The SandboxError code to throw (INVALID_FIXTURES, INVALID_SCENARIO, ...). */
  code: SandboxErrorCode
  /** What was being done, with the file: "load fixtures from ./pets.json". */
  action: string
  /** The path of the pets array in the file: "pets", "data.pets". */
  field: string
  /** The sandbox's `maxPets` (default 100,000). */
  maxPets?: number | undefined
  /** The id of the pet at `index`, when not `<field>[<index>].id` (a state file's "line 3's id"). */
  where?: (index: number) => string
  /** The fix of the message, when not the one for fixtures and scenario files. */
  fix?: string
}

/**
 * Checks the ids of pets read from a file: each one (when given) a positive integer,
 * unique, and at most {@link maxFileId}. Throws a SandboxError naming the file, the
 * field and the id, so a file never makes a later create fail. The one id check of
 * state, fixtures and scenario files.
 */
export function checkPetIds(
  pets: ReadonlyArray<{ id?: number | undefined }>,
  source: IdSource,
): void {
  const ids = new PetIdCheck(source)
  for (const [index, pet] of pets.entries()) ids.add(pet, index)
}

/**
 * {@link checkPetIds} a pet at a time, for a check that goes in slices (an import's
 * 99,000 pets at once took a server 50 ms): `add` throws what it would.
 */
export class PetIdCheck {
  readonly #source: IdSource
  readonly #max: number
  readonly #seen = new Map<number, number>()

  constructor(source: IdSource) {
    this.#source = source
    this.#max = maxFileId(source.maxPets)
  }

  /** Checks the id of the pet at `index` against the rule and the ids before it. */
  add(pet: { id?: number | undefined }, index: number): void {
    const source = this.#source
    const id = pet.id
    if (id === undefined) return
    // Named only when refused: 99,000 names made for nothing took a server 50 ms.
    const at = (at: number) => source.where?.(at) ?? `${source.field}[${at}].id`
    if (!Number.isSafeInteger(id) || id < 1) {
      throw SandboxError.for(
        source.code,
        source.action,
        `${at(index)} ${JSON.stringify(id)} is not a positive integer`,
        source.fix ??
          'Give every pet a positive integer id, or leave ids out and they are assigned in order.',
      )
    }
    if (id > this.#max) {
      throw SandboxError.for(
        source.code,
        source.action,
        `${at(index)} ${id} is past ${this.#max}, the largest id a file may use (2^53 - 1 minus maxPets, so the ids of created pets stay exact)`,
        source.fix ?? 'Use smaller ids, or leave ids out and they are assigned in order.',
      )
    }
    const first = this.#seen.get(id)
    if (first !== undefined) {
      throw SandboxError.for(
        source.code,
        source.action,
        `${at(index)} ${id} appears twice (also ${at(first)})`,
        source.fix ??
          'Give every pet a distinct id, or leave ids out and they are assigned in order.',
      )
    }
    this.#seen.set(id, index)
  }
}
