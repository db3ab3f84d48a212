import {
  createRecords,
  newPetCollection,
  petTextBytes,
  type PetCollection,
  type Seed,
} from './pet-seed.js'
import { nextTurn } from '../common/slices.js'
import type { Pet, PetStatus } from '../common/schemas.js'

/**
 * The seed of a world until its own is in place: read-only, and without `records` (a
 * create in a world whose seed failed makes its record apart), so it shares nothing.
 */
export const EMPTY_SEED: Seed = {
  pets: [],
  byId: new Map(),
  nextId: 1,
  isSeeded: () => false,
  bytes: 0,
}

/**
 * Records a reset may look through, deleting created pets from a collection in place
 * (about 5 ms: @msw/data's `delete` looks its record up from the start, and one delete
 * in a collection of 100k pets took 30 ms); past it, the collection is made again (a
 * load) or dropped.
 */
const RESET_IN_PLACE = 10_000

/**
 * What one world holds, and how it reads it: the shared seed plus the records it
 * created, kept by id, until its pets are used as a collection; then an @msw/data
 * collection (the seed's own, claimed, or a copy) and, once that is more than the seed
 * plus its creates, an index of every pet by id. The collection's lifecycle is here too
 * (back to a seed, made, adopted, loaded). No queue, store or quota: the PetStore
 * (pet-store.ts) decides when these run.
 */
export class WorldPets {
  seed: Seed = EMPTY_SEED
  /** Its collection, once its pets are used as one. */
  collection: PetCollection | undefined
  /** The pets it created on top of the seed (consecutive ids), while its pets are the seed plus these. */
  #created: Map<number, Pet> | undefined
  /**
   * Every pet by id, once the collection is more than the seed plus its creates (changed
   * through `db.pets`, reloaded, restored); rebuilt when stale.
   */
  #byId: Map<number, Pet> | undefined
  #stale = false
  #indexed = 0
  /** The id the next created pet gets. */
  nextId = 1
  /**
   * About the bytes of its pets' JSON in an export (petTextBytes of each), kept as pets
   * come and go, and of how many pets: a change made through `db.pets` (a test's) is
   * counted again at the next read.
   */
  #bytes = { bytes: 0, pets: 0, stale: false }

  /** `claims`: takes the seed's own collection when no world has (the default world). */
  constructor(private readonly claims: boolean) {}

  get(id: number): Pet | undefined {
    if (this.#diverged()) return this.#index().get(id)
    return this.#created?.get(id) ?? this.seed.byId.get(id)
  }

  /** Up to `limit` pets in id order, of `status` when given, without those of `hidden`. */
  list(status: PetStatus | undefined, limit: number, hidden?: Set<number>): Pet[] {
    const result: Pet[] = []
    const hide = hidden !== undefined && hidden.size > 0
    for (const source of this.#sources()) {
      for (const pet of source) {
        if (result.length >= limit) return result
        if (status !== undefined && pet.status !== status) continue
        if (hide && hidden.has(pet.id)) continue
        result.push(pet)
      }
    }
    return result
  }

  count(): number {
    return this.collection?.count() ?? this.seed.pets.length + (this.#created?.size ?? 0)
  }

  /** About the bytes of its pets' JSON text in an export, counted as pets come and go. */
  textBytes(): number {
    const counted = this.#bytes
    if (counted.stale || counted.pets !== this.count()) {
      // Changed through `db.pets` (a test): counted again, once.
      let bytes = 0
      for (const source of this.#sources())
        for (const pet of source) bytes += petTextBytes(pet)
      this.#bytes = { bytes, pets: this.count(), stale: false }
    }
    return this.#bytes.bytes
  }

  /** The pets that are not seeded ones, as plain objects. */
  created(): Pet[] {
    const isSeeded = this.seed.isSeeded
    if (!this.collection)
      return [...(this.#created?.values() ?? [])].map((pet) => ({ ...pet }))
    return this.collection
      .all()
      .filter((pet) => !isSeeded(pet.id))
      .map((pet) => ({ ...pet }))
  }

  /** The pets as plain objects, in id order (for persistence and state). */
  snapshot(): Pet[] {
    return this.#sources().flatMap((source) => [...source].map((pet) => ({ ...pet })))
  }

  /**
   * The pets in id order as they are now: the records themselves, not copies (@msw/data
   * records are frozen, and an update replaces one), to read and never change.
   */
  records(): Pet[] {
    // A copy of a list, not flatMap: that copied 99,000 records one by one in 17 ms, and
    // 20 exports asked at once took them all in one task.
    const [first = [], ...more] = this.#sources()
    const records = Array.isArray(first) ? (first as Pet[]).slice() : [...first]
    for (const source of more) for (const pet of source) records.push(pet)
    return records
  }

  /** Before a create takes its id: the index is made first when the collection diverged. */
  prepareCreate(): void {
    if (this.#diverged()) this.#index()
  }

  /** A created record, made by `create` (in its collection, or apart when it has none). */
  add(record: Pet): void {
    if (this.#byId) {
      // A rebuild between the insert and here has indexed it already.
      if (!this.#byId.has(record.id)) this.#indexed++
      this.#byId.set(record.id, record)
    } else (this.#created ??= new Map()).set(record.id, record)
    this.#counted(petTextBytes(record), 1)
  }

  /** A created record taken out again (its store failed to write it). */
  remove(record: Pet): void {
    const id = record.id
    this.collection?.delete((q) => q.where({ id }))
    this.#created?.delete(id)
    this.#counted(-petTextBytes(record), -1)
  }

  /**
   * Back to the seed, in memory, without a collection (the seed's own when it claims
   * it and no world has): a wanted one is made again by the caller.
   */
  useSeed(seed: Seed): void {
    const kept = this.#keepsCollection(seed)
    this.seed = seed
    this.nextId = seed.nextId
    this.#created = undefined
    this.#byId = undefined
    this.#stale = false
    if (!kept) {
      this.collection = undefined
      const claimed = this.claims ? seed.claim?.() : undefined
      if (claimed) this.#adopt(claimed)
    }
    this.#bytes = { bytes: seed.bytes, pets: seed.pets.length, stale: false }
  }

  /**
   * Makes its collection: the seed's own when no world has taken it, else a new one with
   * a copy of each seeded record (`create` keeps its identity), then its created ones.
   */
  async makeCollection(): Promise<void> {
    const created = [...(this.#created?.values() ?? [])]
    const claimed = this.seed.claim?.()
    const collection = claimed ?? newPetCollection()
    await createRecords(
      claimed ? created : [...this.seed.pets, ...created],
      nextTurn,
      collection,
    )
    this.#adopt(collection)
  }

  /**
   * Replaces the pets with these records, made in this new collection, with ids and in
   * id order; the full index serves them.
   */
  load(collection: PetCollection, records: readonly Pet[], bytes: number): void {
    this.#adopt(collection)
    this.#bytes = { bytes, pets: records.length, stale: false }
    this.#byId = new Map()
    this.#stale = true
    this.nextId = (records.at(-1)?.id ?? 0) + 1
  }

  /** Whether the collection is no longer the seed plus its creates (then the full index serves). */
  #diverged(): boolean {
    if (!this.collection) return false
    return (
      this.#byId !== undefined ||
      this.#stale ||
      this.collection.count() !== this.seed.pets.length + (this.#created?.size ?? 0)
    )
  }

  /** What it holds, in id order: its collection's records, or the seed's then its own. */
  #sources(): Array<Iterable<Pet>> {
    if (this.collection) return [this.collection.all()]
    return this.#created ? [this.seed.pets, this.#created.values()] : [this.seed.pets]
  }

  /** Every pet by id, rebuilt when the collection changed beneath it; new ids follow the largest one. */
  #index(): Map<number, Pet> {
    const pets = this.collection ?? newPetCollection()
    if (this.#byId && !this.#stale && this.#indexed === pets.count()) return this.#byId
    const byId = this.#byId ?? new Map<number, Pet>()
    byId.clear()
    for (const pet of pets.all()) {
      byId.set(pet.id, pet)
      if (pet.id >= this.nextId) this.nextId = pet.id + 1
    }
    this.#byId = byId
    this.#created = undefined
    this.#stale = false
    this.#indexed = pets.count()
    return byId
  }

  /**
   * Whether its collection can go back to `seed` in place, at once: it holds that seed
   * plus the pets it created and nothing else changed, and they are few enough to
   * delete now (each `delete` looks its record up from the start); then they are gone.
   */
  #keepsCollection(seed: Seed): boolean {
    const pets = this.collection
    if (!pets || seed !== this.seed || this.#diverged()) return false
    const created = this.#created
    if (!created) return true
    if (created.size * pets.count() > RESET_IN_PLACE) return false
    for (const id of created.keys()) pets.delete((q) => q.where({ id }))
    return true
  }

  /**
   * Takes this collection as its own. Tests may change it themselves: an update replaces
   * a record, a delete removes one, a create adds one the index has not seen. The index
   * is rebuilt before its next use, so GET /v1/pets/{petId} answers what GET /v1/pets
   * lists.
   */
  #adopt(pets: PetCollection): void {
    this.collection = pets
    const changed = () => {
      if (this.collection !== pets) return
      this.#stale = true
      this.#bytes.stale = true
    }
    pets.hooks.on('update', changed)
    pets.hooks.on('delete', changed)
  }

  /** A pet in (or out, negative) since the last count: counted unless the count is off anyway. */
  #counted(bytes: number, pets: number): void {
    const counted = this.#bytes
    counted.bytes += bytes
    counted.pets += pets
  }
}
