import { assignIds, type PetData } from './dataset.js'
import type { PetFixture } from './fixtures.js'
import { StorageFullError, type PetQuota } from './pet-quota.js'
import type { NewPet, Pet } from './schemas.js'

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

/** A session's pets: the shared seed, then the pets it created, in id order. */
export interface OverlayDataset extends PetData {
  /** The pets this session created, in id order. */
  created(): readonly Pet[]
  /** The session is gone or reset: its created pets no longer count towards the quota. */
  release(): void
}

/** A session's pets count towards the sandbox's quota as any world's do. */
export function createOverlayDataset(seed: SharedSeed, quota: PetQuota): OverlayDataset {
  const created: Pet[] = []
  const byId = new Map<number, Pet>()
  let nextId = seed.nextId
  return {
    get: (id) => byId.get(id) ?? seed.byId.get(id),
    list({ status, limit }) {
      const result: Pet[] = []
      for (const source of [seed.pets, created]) {
        for (const pet of source) {
          if (result.length >= limit) return result
          if (status === undefined || pet.status === status) result.push(pet)
        }
      }
      return result
    },
    async create(pet: NewPet) {
      const refusal =
        quota.refusal(created.length) ??
        (nextId > Number.MAX_SAFE_INTEGER
          ? 'This world has used up its ids (2^53 - 1).'
          : undefined)
      if (refusal) throw new StorageFullError(refusal)
      // The same fields in the same order as the store's schema gives them (id first).
      const record: Pet = { id: nextId++, ...pet }
      created.push(record)
      byId.set(record.id, record)
      quota.add(1)
      return record
    },
    count: () => seed.pets.length + created.length,
    created: () => created,
    release: () => quota.add(-created.length),
  }
}
