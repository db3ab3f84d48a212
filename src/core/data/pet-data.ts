import type { NewPet, Pet, PetStatus } from '../common/schemas.js'

// What the API and the sandbox's users see of a world's pets; the PetStore (pet-store.ts)
// is what holds them.

/** What a request reads and writes of a world's pets. */
export interface PetData {
  get(id: number): Pet | undefined
  list(query: { status?: PetStatus; limit: number }): Pet[]
  create(pet: NewPet): Promise<Pet>
  count(): number
}

/** A created pet a reload gave a new id, because a pet of the new fixtures has its old one. */
export interface MovedPet {
  from: number
  to: number
}
