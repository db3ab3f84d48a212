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
import { WorldPets } from './world-pets.js'
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
const noop = () => {}

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
 *
 * The store decides when things happen (loads one after another, creates between them,
 * the store's writes, the quota); what the world holds and how it is read is
 * {@link WorldPets} (world-pets.ts).
 */
export class PetStore implements PetData {
  readonly #options: PetStoreOptions
  /** What it holds and how it reads it (world-pets.ts). */
  readonly #held: WorldPets
  /** Whether its pets are used as a collection (then made again after a reset). */
  #wanted = false
  /** A load that makes the collection is queued. */
  #making = false
  #createdCount = 0
  #released = false
  /** Pets inserted whose create the store has not confirmed yet: not listed nor served. */
  #unconfirmed: Set<number> | undefined
  /** Creates under way: a load waits for them, and a create for the loads. */
  #creating: Set<Promise<Pet>> | undefined
  #loads = 0
  #ready: Promise<void> = SETTLED

  constructor(options: PetStoreOptions) {
    this.#options = options
    this.#held = new WorldPets(options.claims === true)
    const seed = options.seed()
    if (seed instanceof Promise) void this.#enqueue(async () => this.#useSeed(await seed))
    else this.#useSeed(seed)
  }

  /** The world's pets as an @msw/data collection, when it has one (see `want`). */
  get current(): PetCollection | undefined {
    return this.#held.collection
  }

  /**
   * Its pets are to be used as a collection, now and after every reset: makes it (a
   * load) unless it has one. Resolves when it is there.
   */
  want(): Promise<void> {
    this.#wanted = true
    if (this.#held.collection || this.#making) return this.#ready
    this.#making = true
    return this.#enqueue(async () => {
      this.#making = false
      if (!this.#held.collection) await this.#held.makeCollection()
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
    return this.#held.get(id)
  }

  list({ status, limit }: { status?: PetStatus; limit: number }): Pet[] {
    return this.#held.list(status, limit, this.#unconfirmed)
  }

  count(): number {
    return this.#held.count()
  }

  /**
   * About the bytes of its pets' JSON text in an export (a server takes room for an
   * export before building it): counted as pets come and go, not read pet by pet.
   */
  textBytes(): number {
    return this.#held.textBytes()
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
    return this.#held.created()
  }

  /** The pets as plain objects, in id order (for persistence and state). */
  snapshot(): Pet[] {
    return this.#held.snapshot()
  }

  /**
   * The pets in id order as they are now: the records themselves, not copies (@msw/data
   * records are frozen, and an update replaces one), to read and never change.
   */
  records(): Pet[] {
    return this.#held.records()
  }

  /**
   * Back to the seed. Synchronous when nothing is under way, nothing is to be written
   * and its pets are not used as a collection (else its collection is made again).
   */
  reset(): Promise<void> {
    const seed = this.#options.seed()
    if (!this.#options.persistence && !(seed instanceof Promise) && !this.#busy()) {
      this.#useSeed(seed)
      return this.#wanted && !this.#held.collection ? this.want() : SETTLED
    }
    return this.#enqueue(async () => {
      this.#useSeed(await seed)
      if (this.#wanted && !this.#held.collection) await this.#held.makeCollection()
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
      this.#held.load(collection, records, seed.bytes + bytesOf(moved))
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
      createdAmong(this.#held.seed, pets),
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
    if (countNow) this.#countCreated(createdAmong(this.#held.seed, pets))
    return this.#enqueue(async () => {
      // The seed stays: restored pets with other ids were created by requests, so a
      // later reload of the fixtures keeps them.
      const collection = newPetCollection()
      const restored = await createRecords(assignIds(pets), nextTurn, collection)
      this.#held.load(collection, restored, bytesOf(restored))
      this.#countCreated(createdAmong(this.#held.seed, restored))
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
    const held = this.#held
    const { collection, seed } = held
    held.prepareCreate()
    const refusal =
      this.#options.quota.refusal(this.#createdCount) ??
      (held.nextId > MAX_SAFE_ID
        ? 'The ids of this world are used up (the next one would pass 2^53 - 1). Reset the sandbox (POST /__sandbox/reset) to start again from the seeded pets.'
        : undefined)
    if (refusal) throw new StorageFullError(refusal)
    const id = held.nextId++
    this.#countCreated(this.#createdCount + 1)
    const persistence = this.#options.persistence
    if (persistence) (this.#unconfirmed ??= new Set()).add(id)
    // Loads wait for creates under way, so the collection cannot change meanwhile.
    const record = collection
      ? await collection.create({ ...pet, id })
      : await createRecord(seed, { ...pet, id })
    held.add(record)
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
      held.remove(record)
      this.#countCreated(this.#createdCount - 1)
      throw new StoreWriteError(change, cause)
    } finally {
      this.#unconfirmed?.delete(id)
    }
    return record
  }

  /** Back to the seed (world-pets.ts); no created pet counts any more. */
  #useSeed(seed: Seed): void {
    this.#held.useSeed(seed)
    this.#countCreated(0)
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
