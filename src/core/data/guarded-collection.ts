import { SandboxError } from '../common/errors.js'
import { newPetCollection, type PetCollection } from './pet-seed.js'

// `db.pets` as users see it: the world's collection of the moment, whose record methods
// wait for its pets to be loaded (PetStore#guarded).

/** What the guard reads of a world's pets. */
export interface GuardedPets {
  /** Whether a load is queued or running. */
  readonly loading: boolean
  /** The world's collection, when it has one. */
  readonly current: PetCollection | undefined
}

/**
 * A stand-in collection behind a proxy that forwards to the world's collection of the
 * moment (a reset or restore gives the world a new one, and `db.pets` taken earlier
 * follows it), and whose methods throw while the world is loading or has no collection
 * yet. Its methods run on that collection itself (it keeps its records in private
 * fields), and each is made once, so `db.pets.findMany` is the same function at every
 * read. The stand-in (empty, never used) gives the proxy its shape: `instanceof
 * Collection`, which names are methods.
 */
export function guardWhileLoading(pets: GuardedPets, world: string): PetCollection {
  const methods = new Map<PropertyKey, unknown>()
  const usable = (use: string): PetCollection => {
    const current = pets.current
    if (!current || pets.loading) throw notReady(world, use)
    return current
  }
  return new Proxy(newPetCollection(), {
    get(shape, key) {
      const value: unknown = Reflect.get(shape, key, shape)
      if (value === undefined || key === 'constructor') return value
      if (typeof value !== 'function') {
        // `hooks`, `options`: the current collection's; a symbol (inspection) may look.
        if (typeof key === 'symbol') return Reflect.get(pets.current ?? shape, key)
        return Reflect.get(usable(`read ${world}.db.pets.${key}`), key)
      }
      let method = methods.get(key)
      if (!method) {
        method = (...args: unknown[]): unknown => {
          const current = usable(`call ${world}.db.pets.${String(key)}()`)
          const own = Reflect.get(current, key, current) as (
            ...args: unknown[]
          ) => unknown
          return own.apply(current, args)
        }
        methods.set(key, method)
      }
      return method
    },
  })
}

/** The error of a use of `db.pets` while a load is under way: what to await, and why. */
function notReady(world: string, use: string): SandboxError {
  return SandboxError.for(
    'NOT_READY',
    use,
    'its pets are still loading (seeded in the background after createSandbox, a session just opened, or a reset, reload, restore or import under way): the collection holds none of them yet, or those from before, and a change made now would be lost',
    `Run \`await ${world}.ready\` first (in a test: in beforeAll, or before the first read); db.pets taken earlier stays valid.`,
  )
}
