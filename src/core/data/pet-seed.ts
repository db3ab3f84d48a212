import { Collection } from '@msw/data'
import type { PetFixture } from './fixtures.js'
import { petSchema, type Pet } from '../common/schemas.js'
import { utf8Length } from '../common/text-bytes.js'
import { nextTurn, runInSlices, runNow, type Steps } from '../common/slices.js'

/**
 * Seeded pets, made once and shared by every world that starts from them (the default
 * one and each session), never copied: a world's collection holds references to these
 * records plus its own changes, so memory grows with what worlds changed, not with the
 * seed times the worlds.
 *
 * The records are @msw/data records (made by `Collection#create` in the seed's own
 * collection, so they carry its record identity) and frozen: a world changes them
 * through its collection (`update` makes a new record), never in place under another
 * world.
 */
export interface Seed {
  readonly pets: readonly Pet[]
  readonly byId: ReadonlyMap<number, Pet>
  /** The id the first created pet gets (after the largest seeded one). */
  readonly nextId: number
  /** Whether an id is a seeded pet's. */
  isSeeded(id: number): boolean
  /** About the bytes of their JSON in an export ({@link petTextBytes} of each). */
  readonly bytes: number
  /**
   * Where the records of single creates are made, for the worlds that start from this
   * seed (so one per sandbox, never shared with another); without one, each is made in
   * a collection of its own.
   */
  readonly records?: RecordFactory
  /**
   * The collection the seed's records were made in, for the first world that asks (the
   * default world, at its start): it then holds them as its own `db.pets` without a
   * copy. Every later ask gets none, and that world copies the seed into a collection of
   * its own (`create` of each record).
   */
  readonly claim?: () => PetCollection | undefined
}

/**
 * About the bytes of a pet's JSON text in a list (an export), with its comma:
 * `{"id":…,"name":"…","categoryId":…,"status":"…"}`. Counted as pets come and go
 * (PetStore), so that a server knows an export's size before it builds its text.
 */
export function petTextBytes(pet: PetFixture): number {
  return (
    44 +
    digits(pet.id ?? 0) +
    digits(pet.categoryId) +
    (pet.status?.length ?? 0) +
    utf8Length(pet.name)
  )
}

/** The digits of a positive integer (ids, at most 16), without making its text. */
function digits(value: number): number {
  let count = 1
  for (let rest = value; rest >= 10; rest /= 10) count++
  return count
}

/** Seeding 100k pets: 512 per slice took 1.08 s where all at once took 1.45 s (medians of 5). */
export const INSERT_SLICE = 512

/** An @msw/data collection of pets: a world's `db.pets`, or a seed's. */
export type PetCollection = Collection<typeof petSchema>

/** A new, empty collection of the pet schema. */
export function newPetCollection(): PetCollection {
  return new Collection({ schema: petSchema })
}

/**
 * Makes records of the pet schema in `collection` through @msw/data's own `create`
 * (validated, with its record identity; a record given keeps its primary key), in
 * slices: 100k creates pending at once keep every promise and draft alive until the
 * last one settles, and seeding then spends most of its time collecting garbage.
 * Between slices it waits for its turn (`pause`, slices.ts), so that a server answers
 * other requests while it seeds or restores (a slice of 512 is some 5 ms). Resolves
 * with the records made, in the order given (the collection's order too: each create
 * ends in the turn order it started).
 */
export async function createRecords(
  pets: readonly Pet[],
  pause: () => Promise<void> = nextTurn,
  collection: PetCollection = newPetCollection(),
): Promise<Pet[]> {
  const records: Pet[] = []
  for (let start = 0; start < pets.length; start += INSERT_SLICE) {
    // Each slice in a turn of its own, the first too when there are more (ten requests
    // read at once would each do one in their own task, one after another); a few
    // records are made at once.
    if (start > 0 || pets.length > INSERT_SLICE) await pause()
    const slice = pets.slice(start, start + INSERT_SLICE)
    records.push(...(await Promise.all(slice.map((pet) => collection.create(pet)))))
  }
  return records
}

/**
 * Makes records of the pet schema one at a time through @msw/data's own `create`, outside
 * any world's collection (a world that has not made its collection keeps its created
 * records itself). Its collection, made at the first create, holds a record only until
 * `create` returns (then `delete` takes it out): one collection for every create, not
 * one each.
 */
export class RecordFactory {
  #collection: PetCollection | undefined

  async create(pet: Pet): Promise<Pet> {
    const collection = (this.#collection ??= newPetCollection())
    const record = await collection.create(pet)
    collection.delete(record)
    return record
  }
}

/** Makes one record of the pet schema for a world that starts from `seed`, outside any world's collection. */
export async function createRecord(seed: Seed, pet: Pet): Promise<Pet> {
  if (seed.records) return seed.records.create(pet)
  const [record] = await createRecords([pet])
  return record as Pet
}

/** Builds a seed from fixed pets (faker's or fixtures), in id order. */
export async function createSeed(
  /**
   * The pets, or the steps that make them and how many they make (faker's 10,000 took
   * a loaded server 56 ms at once): in turns of their own when more than a slice.
   */
  initial: PetFixture[] | { count: number; make: () => Steps<PetFixture[]> },
  pause: () => Promise<void> = nextTurn,
): Promise<Seed> {
  if (!Array.isArray(initial) && initial.count > INSERT_SLICE) await pause()
  const fixtures = Array.isArray(initial)
    ? initial
    : initial.count > INSERT_SLICE
      ? await runInSlices(initial.make(), pause)
      : runNow(initial.make())
  const collection = newPetCollection()
  const pets = await createRecords(assignIds(fixtures), pause, collection)
  // Frozen, indexed and counted in slices too (a scenario of 10,000 pets seeds in a
  // server that answers others meanwhile).
  const byId = new Map<number, Pet>()
  let bytes = 0
  for (const [index, pet] of pets.entries()) {
    if (index > 0 && index % SEED_SLICE === 0) await pause()
    Object.freeze(pet)
    byId.set(pet.id, pet)
    bytes += petTextBytes(pet)
  }
  return {
    pets,
    byId,
    nextId: (pets.at(-1)?.id ?? 0) + 1,
    isSeeded: idsOf(pets),
    bytes,
    records: new RecordFactory(),
    claim: claimOnce(collection),
  }
}

/** The seed's own collection for the first world that asks, then none (see Seed#claim). */
function claimOnce(collection: PetCollection): () => PetCollection | undefined {
  let unclaimed: PetCollection | undefined = collection
  return () => {
    const claimed = unclaimed
    unclaimed = undefined
    return claimed
  }
}

/** Records frozen, indexed and counted per slice of {@link createSeed}. */
const SEED_SLICE = 8 * INSERT_SLICE

/**
 * Whether an id is one of these pets'. Faker's pets are numbered 1..n: a range then,
 * not a set of up to a million ids.
 */
export function idsOf(records: readonly Pet[]): (id: number) => boolean {
  if (records.every((pet, index) => pet.id === index + 1)) {
    const last = records.length
    return (id) => id >= 1 && id <= last
  }
  const ids = new Set(records.map((pet) => pet.id))
  return (id) => ids.has(id)
}

/**
 * Gives every pet an id: explicit ids are honoured, the rest follow the largest id so far.
 * Sorted, so the collection's insertion order is id order, which listPets promises.
 * A record that has its id is used as it is (the collection stores a copy); seeding 100k
 * pets spent 150 ms copying them.
 */
export function assignIds(records: readonly PetFixture[] | readonly Pet[]): Pet[] {
  let next = 1
  let sorted = true
  const pets = records.map((record) => {
    const pet = (record.id === undefined ? { ...record, id: next } : record) as Pet
    if (pet.id < next) sorted = false
    next = Math.max(next, pet.id + 1)
    return pet
  })
  return sorted ? pets : pets.sort((left, right) => left.id - right.id)
}

/** How many of these pets the seed does not have: created ones. */
export function createdAmong(seed: Seed, pets: readonly Pet[]): number {
  let created = 0
  for (const pet of pets) if (!seed.isSeeded(pet.id)) created++
  return created
}
