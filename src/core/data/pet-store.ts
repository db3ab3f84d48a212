import { guardWhileLoading } from './guarded-collection.js'
import { StorageFullError, type PetQuota } from './pet-quota.js'
import {
  assignIds,
  createdAmong,
  createRecord,
  createRecords,
  newPetCollection,
  petTextBytes,
  type PetCollection,
  type Seed,
} from './pet-seed.js'
import { nextTurn } from '../common/slices.js'
import { MAX_SAFE_ID, type NewPet, type Pet, type PetStatus } from '../common/schemas.js'
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
  /**
   * Takes the collection its seed's records were made in as its own, when no other
   * world has (the default world, at its start): its `db.pets` is then there without a
   * copy of the seed.
   */
  claims?: boolean
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
 * Records a reset may look through, deleting created pets from a collection in place
 * (about 5 ms: @msw/data's `delete` looks its record up from the start, and one delete
 * in a collection of 100k pets took 30 ms); past it, the collection is made again (a
 * load) or dropped.
 */
const RESET_IN_PLACE = 10_000

/**
 * One world's pets: the shared seed plus the world's own changes, with @msw/data's
 * Collection as its public face (`db.pets`). Every world has one: the default one (with
 * the store that persists it) and each session, and each of their data scenarios.
 *
 * A world without a collection serves the shared seed itself plus the records it
 * created, kept by id: a session costs memory for what it changed, not for the seed
 * (sessions that only take requests never make a collection). A world gets one when its
 * pets are to be used as a collection (`want`: `db` read, `sandbox.session(id)` in
 * code), made as a load through @msw/data's public `create`: the seed's own
 * collection when no world has taken it (`claims`, the default world), else a copy of
 * the seed's records and its own. A reset drops it and, when wanted, makes it again; a
 * reload or restore makes a new one. `db.pets` follows the world's collection of the
 * moment (guarded-collection.ts).
 */
export class PetStore implements PetData {
  readonly #options: PetStoreOptions
  #seed: Seed = EMPTY_SEED
  #pets: PetCollection | undefined
  /** Whether its pets are used as a collection (then made again after a reset). */
  #wanted = false
  /** A load that makes the collection is queued. */
  #making = false
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

  /** The world's pets as an @msw/data collection, when it has one (see `want`). */
  get current(): PetCollection | undefined {
    return this.#pets
  }

  /**
   * Its pets are to be used as a collection, now and after every reset: makes it (a
   * load) unless it has one. Resolves when it is there.
   */
  want(): Promise<void> {
    this.#wanted = true
    if (this.#pets || this.#making) return this.#ready
    this.#making = true
    return this.#enqueue(async () => {
      this.#making = false
      if (!this.#pets) await this.#makeCollection()
    })
  }

  /**
   * The collection as `db.pets` shows it: whichever collection the world has at the
   * moment, whose methods that read or change records throw a SandboxError (NOT_READY)
   * while a load is under way (the seed at start, a reset, reload, restore or import,
   * the collection being made). Until then the collection holds none of the pets, or
   * those from before the reset, and a change made in it would be lost: a read that
   * returned `[]` was the trap. Taking `db.pets` is fine at any time (a hook, a variable
   * at the top of a test file); only its use waits. `world` is how the user names the
   * world (`sandbox`, `sandbox.session('bob')`), for the message.
   */
  guarded(world: string): PetCollection {
    void this.want().catch(noop)
    return guardWhileLoading(this, world)
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

  /**
   * Back to the seed. Synchronous when nothing is under way, nothing is to be written
   * and its pets are not used as a collection (else its collection is made again).
   */
  reset(): Promise<void> {
    const seed = this.#options.seed()
    if (!this.#options.persistence && !(seed instanceof Promise) && !this.#busy()) {
      this.#useSeed(seed)
      return this.#wanted && !this.#pets ? this.want() : SETTLED
    }
    return this.#enqueue(async () => {
      this.#useSeed(await seed)
      if (this.#wanted && !this.#pets) await this.#makeCollection()
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
      this.#useSeed(seed)
      const collection = newPetCollection()
      const records = await createRecords(
        assignIds([...seed.pets, ...moved]),
        nextTurn,
        collection,
      )
      this.#load(collection, records, seed.bytes + bytesOf(moved))
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
      const collection = newPetCollection()
      const restored = await createRecords(assignIds(pets), nextTurn, collection)
      this.#load(collection, restored, bytesOf(restored))
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
    // Loads wait for creates under way, so the collection cannot change meanwhile.
    const record = pets
      ? await pets.create({ ...pet, id })
      : await createRecord(this.#seed, { ...pet, id })
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
    const pets = this.#pets ?? newPetCollection()
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

  /**
   * Back to the seed, in memory, without a collection (the seed's own when it claims
   * it and no world has): a wanted one is made again by the caller.
   */
  #useSeed(seed: Seed): void {
    const kept = this.#keepsCollection(seed)
    this.#seed = seed
    this.#nextId = seed.nextId
    this.#created = undefined
    this.#byId = undefined
    this.#stale = false
    if (!kept) {
      this.#pets = undefined
      const claimed = this.#options.claims ? seed.claim?.() : undefined
      if (claimed) this.#adopt(claimed)
    }
    this.#bytes = { bytes: seed.bytes, pets: seed.pets.length, stale: false }
    this.#countCreated(0)
  }

  /**
   * Whether its collection can go back to `seed` in place, at once: it holds that seed
   * plus the pets it created and nothing else changed, and they are few enough to
   * delete now (each `delete` looks its record up from the start); then they are gone.
   */
  #keepsCollection(seed: Seed): boolean {
    const pets = this.#pets
    if (!pets || seed !== this.#seed || this.#diverged()) return false
    const created = this.#created
    if (!created) return true
    if (created.size * pets.count() > RESET_IN_PLACE) return false
    for (const id of created.keys()) pets.delete((q) => q.where({ id }))
    return true
  }

  /**
   * Makes its collection: the seed's own when no world has taken it, else a new one with
   * a copy of each seeded record (`create` keeps its identity), then its created ones.
   */
  async #makeCollection(): Promise<void> {
    const created = [...(this.#created?.values() ?? [])]
    const claimed = this.#seed.claim?.()
    const collection = claimed ?? newPetCollection()
    await createRecords(
      claimed ? created : [...this.#seed.pets, ...created],
      nextTurn,
      collection,
    )
    this.#adopt(collection)
  }

  /**
   * Takes this collection as its own. Tests may change it themselves: an update replaces
   * a record, a delete removes one, a create adds one the index has not seen. The index
   * is rebuilt before its next use, so GET /v1/pets/{petId} answers what GET /v1/pets
   * lists.
   */
  #adopt(pets: PetCollection): void {
    this.#pets = pets
    const changed = () => {
      if (this.#pets !== pets) return
      this.#stale = true
      this.#bytes.stale = true
    }
    pets.hooks.on('update', changed)
    pets.hooks.on('delete', changed)
  }

  /**
   * Replaces the pets with these records, made in this new collection, with ids and in
   * id order; the full index serves them.
   */
  #load(collection: PetCollection, records: readonly Pet[], bytes: number): void {
    this.#adopt(collection)
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
