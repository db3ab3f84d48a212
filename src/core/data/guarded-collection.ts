import type { Collection } from '@msw/data'
import { SandboxError } from '../common/errors.js'
import type { petSchema } from '../common/schemas.js'

// `db.pets` as users see it: the world's collection, whose record methods wait for its
// pets to be loaded (PetStore#guarded).

/** The methods of an @msw/data collection that read or change its records. */
const RECORD_METHODS: ReadonlySet<PropertyKey> = new Set([
  'all',
  'count',
  'findFirst',
  'findMany',
  'create',
  'createMany',
  'update',
  'updateMany',
  'delete',
  'deleteMany',
  'clear',
])

/**
 * The collection behind a proxy whose record methods throw while `store` is loading. Its
 * methods run on the collection itself (it keeps its records in private fields), and
 * each is made once, so `db.pets.findMany` is the same function at every read.
 */
export function guardWhileLoading(
  pets: Collection<typeof petSchema>,
  store: { readonly loading: boolean },
  world: string,
): Collection<typeof petSchema> {
  const methods = new Map<PropertyKey, unknown>()
  return new Proxy(pets, {
    get(target, key) {
      const value: unknown = Reflect.get(target, key, target)
      if (typeof value !== 'function' || key === 'constructor') return value
      let method = methods.get(key)
      if (!method) {
        const guarded = RECORD_METHODS.has(key)
        method = (...args: unknown[]): unknown => {
          if (guarded && store.loading) throw notReady(world, String(key))
          const current = Reflect.get(target, key, target) as (
            ...args: unknown[]
          ) => unknown
          return current.apply(target, args)
        }
        methods.set(key, method)
      }
      return method
    },
  })
}

/** The error of a use of `db.pets` while a load is under way: what to await, and why. */
function notReady(world: string, method: string): SandboxError {
  return SandboxError.for(
    'NOT_READY',
    `call ${world}.db.pets.${method}()`,
    'its pets are still loading (seeded in the background after createSandbox, or a reset, reload, restore or import under way): the collection holds none of them yet, or those from before, and a change made now would be lost',
    `Run \`await ${world}.ready\` first (in a test: in beforeAll, or before the first read); db.pets taken earlier stays valid.`,
  )
}
