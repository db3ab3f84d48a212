import { Collection } from '@msw/data'
import { guardWhileLoading } from './guarded-collection.js'
import { StorageFullError, type PetQuota } from './pet-quota.js'
import {
  assignIds,
  createdAmong,
  createRecord,
  createRecords,
  fillCollection,
  petTextBytes,
  type Seed,
} from './pet-seed.js'
import {
  MAX_SAFE_ID,
  petSchema,
  type NewPet,
  type Pet,
  type PetStatus,
} from '../common/schemas.js'
import {
  STATE_FORMAT,
  StoreWriteError,
  type PersistedState,
  type StoreChange,
  type StoreReplaceChange,
} from './store.js'
import type { MovedPet, PetData } from './pet-data.js'

/** Where a store writes its changes, and what it writes beside the pets. */
export interface PetPersistence {
  /** The sandbox's store (option `store`): the pets' changes go through its `write`. */
  store: { write(change: StoreChange): void | Promise<void> }
  seed: number
  count: number
}

export interface PetStoreOptions {
  /** The seed it starts from, read again on reset and reload (the fixtures may have changed). */
  seed: () => Seed | Promise<Seed>
  /** The counter of created pets shared by every world of a sandbox. */
  quota: PetQuota
  persistence?: PetPersistence
}

const SETTLED: Promise<void> = Promise.resolve()
/**
 * The seed of a store until its own is in place: read-only, and without `records` (a
 * create in a world whose seed failed makes its record apart), so it shares nothing.
 */
const EMPTY_SEED: Seed = {
  pets: [],
  byId: new Map(),
  nextId: 1,
  isSeeded: () => false,
  bytes: 0,
}
const noop = () => {}

/**
 * One world's pets: the shared seed plus the world's own changes, with @msw/data's
 * Collection as its public face (`db.pets`). Every world has one: the default one (with
 * the store that persists it) and each session, and each of their data scenarios.
 *
 * Until `db` is first read (or a reload or restore), the world serves the shared seed
 * itself plus the records it created, kept by id. Its collection is then made at once,
 * synchronously, holding references to the seed's records and its own: `db.pets` holds
 * the seeded pets at the first read, and a session costs memory for what it changed,
 * not for the seed (a collection is some 3 KB, so sessions that only use requests make
 * none).
 */
export class PetStore implements PetData {
  readonly #options: PetStoreOptions
  #seed: Seed = EMPTY_SEED
  #pets: Collection<typeof petSchema> | undefined
  /** The pets it created on top of the seed (consecutive ids), while its pets are the seed plus these. */
  #created: Map<number, Pet> | undefined
  /**
   * Every pet by id, once the collection is more than the seed plus its creates (changed
   * through `db.pets`, reloaded, restored); rebuilt when stale.
   */
  #byId: Map<number, Pet> | undefined
  #stale = false
  #indexed = 0
  #nextId = 1
  #createdCount = 0
  #released = false
  /** Pets inserted whose create the store has not confirmed yet: not listed nor served. */
  #unconfirmed: Set<number> | undefined
  /** Creates under way: a load waits for them, and a create for the loads. */
  #creating: Set<Promise<Pet>> | undefined
  #loads = 0
  #ready: Promise<void> = SETTLED
  /**
   * About the bytes of its pets' JSON in an export (petTextBytes of each), kept as pets
   * come and go, and of how many pets: a change made through `db.pets` (a test's) is
   * counted again at the next read.
   */
  #bytes = { bytes: 0, pets: 0, stale: false }

  constructor(options: PetStoreOptions) {
    this.#options = options
    const seed = options.seed()
    if (seed instanceof Promise) void this.#enqueue(async () => this.#useSeed(await seed))
    else this.#useSeed(seed)
  }

  /** The world's pets as an @msw/data collection, made on first use over the seed. */
  get collection(): Collection<typeof petSchema> {
    if (this.#pets) return this.#pets
    const pets = new Collection({ schema: petSchema })
    this.#pets = pets
    fillCollection(pets, this.#seed.pets, this.#created?.values())
    // Tests may change the collection themselves: an update replaces a record, a delete
    // removes one, a create adds one the index has not seen. The index is rebuilt before
    // its next use, so GET /v1/pets/{petId} answers what GET /v1/pets lists.
    pets.hooks.on('update', () => {
      this.#stale = true
      this.#bytes.stale = true
    })
    pets.hooks.on('delete', () => {
      this.#stale = true
      this.#bytes.stale = true
    })
    return pets
  }

  /**
   * The collection as `db.pets` shows it: the same collection, whose methods that read or
   * change records throw a SandboxError (NOT_READY) while a load is under way (the seed
   * at start, a reset, reload, restore or import). Until then the collection holds none
   * of the pets, or those from before the reset, and a change made in it would be lost:
   * a read that returned `[]` was the trap. Taking `db.pets` is fine at any time (a
   * hook, a variable at the top of a test file); only its use waits. `world` is how
   * the user names the world (`sandbox`, `sandbox.session('bob')`), for the message.
   */
  guarded(world: string): Collection<typeof petSchema> {
    return guardWhileLoading(this.collection, this, world)
  }

  /**
   * Resolves once the last load (seed, reset, reload, restore) is in place. It does not
   * reject when only the store failed to write it: the data is there.
   */
  get ready(): Promise<void> {
    return this.#ready
  }

  /** Whether a load is queued or running (requests then wait for `ready`). */
  get loading(): boolean {
    return this.#loads > 0
  }

  get(id: number): Pet | undefined {
    if (this.#unconfirmed?.has(id)) return undefined
    if (this.#diverged()) return this.#index().get(id)
    return this.#created?.get(id) ?? this.#seed.byId.get(id)
  }

  list({ status, limit }: { status?: PetStatus; limit: number }): Pet[] {
    const result: Pet[] = []
    const hide = this.#unconfirmed !== undefined && this.#unconfirmed.size > 0
    for (const source of this.#sources()) {
      for (const pet of source) {
        if (result.length >= limit) return result
        if (status !== undefined && pet.status !== status) continue
        if (hide && this.#unconfirmed?.has(pet.id)) continue
        result.push(pet)
      }
    }
    return result
  }

  count(): number {
    return this.#pets?.count() ?? this.#seed.pets.length + (this.#created?.size ?? 0)
  }

  /**
   * About the bytes of its pets' JSON text in an export (a server takes room for an
   * export before building it): counted as pets come and go, not read pet by pet.
   */
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

  /**
   * Adds a pet; with a store, resolves once the store has written it (else rejects with
   * a StoreWriteError and the pet is gone). Rejects with a StorageFullError when the
   * world or the sandbox holds as many created pets as its quota allows.
   */
  async create(pet: NewPet): Promise<Pet> {
    while (this.#loads > 0) await this.#ready.then(noop, noop)
    const work = this.#createNow(pet)
    const creating = (this.#creating ??= new Set())
    creating.add(work)
    try {
      return await work
    } finally {
      creating.delete(work)
    }
  }

  /** The pets that are not seeded ones, as plain objects. */
  created(): Pet[] {
    const isSeeded = this.#seed.isSeeded
    if (!this.#pets)
      return [...(this.#created?.values() ?? [])].map((pet) => ({ ...pet }))
    return this.#pets
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

  /** Back to the seed. Synchronous when nothing is under way and nothing is to be written. */
  reset(): Promise<void> {
    const seed = this.#options.seed()
    if (!this.#options.persistence && !(seed instanceof Promise) && !this.#busy()) {
      this.#useSeed(seed)
      return SETTLED
    }
    return this.#enqueue(async () => {
      this.#useSeed(await seed)
      await this.#replaced('reset')
    })
  }

  /** The seed read again, plus the created pets: ids kept unless a seeded pet has one. */
  reload(): Promise<MovedPet[]> {
    const moves: MovedPet[] = []
    const done = this.#enqueue(async () => {
      const kept = this.created()
      const seed = await this.#options.seed()
      const taken = seed.isSeeded
      let next = Math.max(seed.pets.at(-1)?.id ?? 0, kept.at(-1)?.id ?? 0) + 1
      const moved = kept.map((pet) => {
        if (!taken(pet.id)) return pet
        moves.push({ from: pet.id, to: next })
        return { ...pet, id: next++ }
      })
      const records = await createRecords(assignIds(moved))
      this.#useSeed(seed)
      this.#load(assignIds([...seed.pets, ...records]), seed.bytes + bytesOf(records))
      this.#countCreated(moved.length)
      await this.#replaced('reload')
    })
    return done.then(() => moves)
  }

  /**
   * Why these pets may not replace this world's (an import): over maxPets or
   * maxTotalPets, with `seeded` more pets (fewer, when negative) that the import's
   * scenarios seed.
   */
  importRefusal(pets: readonly Pet[], seeded = 0): string | undefined {
    return this.#options.quota.importRefusal(
      createdAmong(this.#seed, pets),
      this.#createdCount,
      seeded,
    )
  }

  /**
   * Replaces the pets with these (persisted state, an import); ids are kept. `countNow`
   * (an import, checked just before) counts its created pets against the quota at once,
   * so a second import checked before this one is in place sees them.
   */
  restore(pets: Pet[], { countNow = false } = {}): Promise<void> {
    if (countNow) this.#countCreated(createdAmong(this.#seed, pets))
    return this.#enqueue(async () => {
      // The seed stays: restored pets with other ids were created by requests, so a
      // later reload of the fixtures keeps them.
      const restored = await createRecords(assignIds(pets))
      this.#load(restored, bytesOf(restored))
      this.#countCreated(createdAmong(this.#seed, restored))
      await this.#replaced('restore')
    })
  }

  /**
   * The world (or the scenario's data) is gone: its created pets no longer count towards
   * the quota, and nothing counts any more (an import or create still under way).
   */
  release(): void {
    this.#countCreated(0)
    this.#released = true
  }

  async #createNow(pet: NewPet): Promise<Pet> {
    // The id is taken before the first await, so concurrent creates get unique,
    // increasing ids and land in the collection in that order.
    const pets = this.#pets
    if (this.#diverged()) this.#index()
    const refusal =
      this.#options.quota.refusal(this.#createdCount) ??
      (this.#nextId > MAX_SAFE_ID
        ? 'The ids of this world are used up (the next one would pass 2^53 - 1). Reset the sandbox (POST /__sandbox/reset) to start again from the seeded pets.'
        : undefined)
    if (refusal) throw new StorageFullError(refusal)
    const id = this.#nextId++
    this.#countCreated(this.#createdCount + 1)
    const persistence = this.#options.persistence
    if (persistence) (this.#unconfirmed ??= new Set()).add(id)
    const record = pets
      ? await pets.create({ ...pet, id })
      : await createRecord(this.#seed, { ...pet, id })
    // `db` read meanwhile made the collection: the record goes in it too.
    if (!pets && this.#pets) (this.#pets.all() as unknown as Pet[]).push(record)
    if (this.#byId) {
      // A rebuild between the insert and here has indexed it already.
      if (!this.#byId.has(id)) this.#indexed++
      this.#byId.set(id, record)
    } else (this.#created ??= new Map()).set(id, record)
    this.#counted(petTextBytes(record), 1)
    if (!persistence) return record
    const change: StoreChange = {
      type: 'create',
      pet: { ...record },
      state: () => this.#state(),
    }
    try {
      // A synchronous store that throws lands here before any other code runs, so no
      // other change's state() holds the pet that is removed.
      await persistence.store.write(change)
    } catch (cause) {
      this.#pets?.delete((q) => q.where({ id }))
      this.#created?.delete(id)
      this.#counted(-petTextBytes(record), -1)
      this.#countCreated(this.#createdCount - 1)
      throw new StoreWriteError(change, cause)
    } finally {
      this.#unconfirmed?.delete(id)
    }
    return record
  }

  /** Whether the collection is no longer the seed plus its creates (then the full index serves). */
  #diverged(): boolean {
    if (!this.#pets) return false
    return (
      this.#byId !== undefined ||
      this.#stale ||
      this.#pets.count() !== this.#seed.pets.length + (this.#created?.size ?? 0)
    )
  }

  /** What it holds, in id order: its collection's records, or the seed's then its own. */
  #sources(): Array<Iterable<Pet>> {
    if (this.#pets) return [this.#pets.all()]
    return this.#created ? [this.#seed.pets, this.#created.values()] : [this.#seed.pets]
  }

  /** Every pet by id, rebuilt when the collection changed beneath it; new ids follow the largest one. */
  #index(): Map<number, Pet> {
    const pets = this.collection
    if (this.#byId && !this.#stale && this.#indexed === pets.count()) return this.#byId
    const byId = this.#byId ?? new Map<number, Pet>()
    byId.clear()
    for (const pet of pets.all()) {
      byId.set(pet.id, pet)
      if (pet.id >= this.#nextId) this.#nextId = pet.id + 1
    }
    this.#byId = byId
    this.#created = undefined
    this.#stale = false
    this.#indexed = pets.count()
    return byId
  }

  /** Back to the seed, in memory. */
  #useSeed(seed: Seed): void {
    this.#seed = seed
    this.#nextId = seed.nextId
    this.#created = undefined
    this.#byId = undefined
    this.#stale = false
    if (this.#pets) fillCollection(this.#pets, seed.pets)
    this.#bytes = { bytes: seed.bytes, pets: seed.pets.length, stale: false }
    this.#countCreated(0)
  }

  /** Replaces the pets with these records, which have ids and are in id order; the full index serves them. */
  #load(records: readonly Pet[], bytes: number): void {
    fillCollection(this.collection, records)
    this.#bytes = { bytes, pets: records.length, stale: false }
    this.#byId = new Map()
    this.#stale = true
    this.#nextId = (records.at(-1)?.id ?? 0) + 1
  }

  /** A pet in (or out, negative) since the last count: counted unless the count is off anyway. */
  #counted(bytes: number, pets: number): void {
    const counted = this.#bytes
    counted.bytes += bytes
    counted.pets += pets
  }

  #countCreated(count: number): void {
    if (this.#released) return
    this.#options.quota.add(count - this.#createdCount)
    this.#createdCount = count
  }

  #busy(): boolean {
    return this.#loads > 0 || (this.#creating !== undefined && this.#creating.size > 0)
  }

  #state(): PersistedState {
    return {
      format: STATE_FORMAT,
      seed: this.#options.persistence?.seed ?? 0,
      count: this.#options.persistence?.count ?? 0,
      pets: this.snapshot(),
    }
  }

  async #replaced(reason: StoreReplaceChange['reason']): Promise<void> {
    const persistence = this.#options.persistence
    if (!persistence) return
    const change: StoreChange = { type: 'replace', reason, state: () => this.#state() }
    try {
      await persistence.store.write(change)
    } catch (cause) {
      throw new StoreWriteError(change, cause)
    }
  }

  /**
   * Loads run one after another, each once the creates under way are done: a restore or
   * reset issued while the seed is still loading must not interleave with it.
   */
  #enqueue(task: () => Promise<void>): Promise<void> {
    this.#loads++
    const run = async () => {
      while (this.#creating && this.#creating.size > 0) {
        await Promise.allSettled(this.#creating)
      }
      await task()
    }
    const done = this.#ready.then(run, run).finally(() => this.#loads--)
    // A store that failed leaves the data in place: requests go on.
    this.#ready = done.catch((error: unknown) => {
      if (!(error instanceof StoreWriteError)) throw error
    })
    return done
  }
}

/** About the bytes of these pets' JSON in an export. */
function bytesOf(pets: readonly Pet[]): number {
  let bytes = 0
  for (const pet of pets) bytes += petTextBytes(pet)
  return bytes
}
