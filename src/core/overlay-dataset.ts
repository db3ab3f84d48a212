import { assignIds, type PetData } from './dataset.js'
import type { PetFixture } from './fixtures.js'
import { StorageFullError, type PetQuota } from './pet-quota.js'
import type { NewPet, Pet, PetStatus } from './schemas.js'

/**
 * Seeded pets every session starts from, made once and shared, never copied: a session
 * keeps only what it created on top (copy on write), so memory grows with what sessions
 * changed, not with the seed.
 */
export interface SharedSeed {
  readonly pets: readonly Pet[]
  readonly byId: ReadonlyMap<number, Pet>
  /** The id the first created pet gets (after the largest seeded one). */
  readonly nextId: number
}

export function createSharedSeed(initial: PetFixture[]): SharedSeed {
  const pets = assignIds(initial).map((pet) => Object.freeze({ ...pet }))
  const byId = new Map(pets.map((pet) => [pet.id, pet]))
  return { pets, byId, nextId: (pets.at(-1)?.id ?? 0) + 1 }
}

/**
 * A session's pets: the shared seed, then the pets it created, in id order. Its pets
 * count towards the sandbox's quota as any world's do.
 *
 * Every session has one, so it holds as little as it can: no array until the session
 * creates a pet, and no index by id, since created pets take consecutive ids from
 * `seed.nextId` and are found by position.
 */
export class OverlayDataset implements PetData {
  readonly #seed: SharedSeed
  readonly #quota: PetQuota
  #created: Pet[] | undefined

  constructor(seed: SharedSeed, quota: PetQuota) {
    this.#seed = seed
    this.#quota = quota
  }

  get(id: number): Pet | undefined {
    return id >= this.#seed.nextId
      ? this.#created?.[id - this.#seed.nextId]
      : this.#seed.byId.get(id)
  }

  list({ status, limit }: { status?: PetStatus; limit: number }): Pet[] {
    const result: Pet[] = []
    for (const source of [this.#seed.pets, this.created()]) {
      for (const pet of source) {
        if (result.length >= limit) return result
        if (status === undefined || pet.status === status) result.push(pet)
      }
    }
    return result
  }

  async create(pet: NewPet): Promise<Pet> {
    const created = this.created()
    const nextId = this.#seed.nextId + created.length
    const refusal =
      this.#quota.refusal(created.length) ??
      (nextId > Number.MAX_SAFE_INTEGER
        ? 'This world has used up its ids (2^53 - 1).'
        : undefined)
    if (refusal) throw new StorageFullError(refusal)
    // The same fields in the same order as the store's schema gives them (id first).
    const record: Pet = { id: nextId, ...pet }
    // A literal holds one pet where the first push would reserve room for 17.
    if (this.#created) this.#created.push(record)
    else this.#created = [record]
    this.#quota.add(1)
    return record
  }

  count(): number {
    return this.#seed.pets.length + this.created().length
  }

  /** The pets this session created, in id order. */
  created(): readonly Pet[] {
    return this.#created ?? NONE
  }

  /** The session is gone or reset: its created pets no longer count towards the quota. */
  release(): void {
    this.#quota.add(-this.created().length)
  }
}

const NONE: readonly Pet[] = Object.freeze([])
