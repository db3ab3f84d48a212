import { DEFAULT_MAX_PETS, DEFAULT_MAX_TOTAL_PETS } from '../common/limits.js'
import { thousands } from '../common/text.js'

/**
 * How many pets requests have created, against the sandbox's limits: each world (a
 * dataset: the default data, a scenario's data, a session's) holds at most `maxPets`,
 * all the worlds of a sandbox together at most `maxTotalPets`. Every dataset of a
 * sandbox reports to the same quota; seeded pets do not count, except those of the
 * scenarios sessions define at run time (world.ts), which a client chose to make.
 */
export interface PetQuota {
  readonly maxPets: number
  readonly maxTotalPets: number
  /** Created pets across every world now. */
  readonly total: number
  /** Why a world holding `created` pets may not get one more, or undefined. */
  refusal(created: number): string | undefined
  /**
   * Why a world holding `replaced` created pets may not take `created` at once instead
   * (a session import), with `seeded` more pets of the scenarios it carries (fewer, when
   * negative: they replace definitions that seeded more), or undefined.
   */
  importRefusal(created: number, replaced: number, seeded?: number): string | undefined
  /** Counts `n` more created pets (fewer, when negative). */
  add(n: number): void
}

/** The limits of a quota; the defaults are 100,000 and 1,000,000. */
export interface PetQuotaLimits {
  maxPets?: number | undefined
  maxTotalPets?: number | undefined
}

const RESET_HINT =
  'Reset the sandbox (POST /__sandbox/reset) to start again from the seeded pets, or start it with a larger limit.'

/** Creates the shared counter of created pets. */
export function createPetQuota(limits: PetQuotaLimits = {}): PetQuota {
  const maxPets = limits.maxPets ?? DEFAULT_MAX_PETS
  const maxTotalPets = limits.maxTotalPets ?? DEFAULT_MAX_TOTAL_PETS
  let total = 0
  return {
    maxPets,
    maxTotalPets,
    get total() {
      return total
    },
    refusal(created) {
      if (created >= maxPets) {
        return `This world holds ${thousands(maxPets)} created pets, the most the sandbox keeps in one (maxPets, --max-pets). ${RESET_HINT}`
      }
      if (total >= maxTotalPets) {
        return `The sandbox holds ${thousands(maxTotalPets)} created pets across its worlds (with the pets of scenarios defined at run time), the most it keeps (maxTotalPets, --max-total-pets). ${RESET_HINT}`
      }
      return undefined
    },
    importRefusal(created, replaced, seeded = 0) {
      if (created > maxPets) {
        return `The export holds ${thousands(created)} created pets (ids the seeded data does not have); a world of this sandbox keeps at most ${thousands(maxPets)} (maxPets, --max-pets). Import an export with fewer pets, or start the sandbox with a larger limit.`
      }
      const room = maxTotalPets - Math.max(0, total - replaced)
      if (created + seeded > room) {
        const holds =
          seeded > 0
            ? `${thousands(created)} and its scenarios seed ${thousands(seeded)} more`
            : thousands(created)
        return `The sandbox has room for ${thousands(Math.max(0, room))} more created pets across its worlds (maxTotalPets, --max-total-pets), and the export holds ${holds}. End the sessions you no longer need (DELETE /__sandbox/sessions/{id}), or start the sandbox with a larger limit.`
      }
      return undefined
    },
    add(n) {
      total = Math.max(0, total + n)
    },
  }
}

/** A create the quota refused: answered 507 `storage_full`, its message naming reset. */
export class StorageFullError extends Error {
  /** How the request path answers it (api-errors.ts `failureOf`). */
  readonly apiCode = 'storage_full'
  constructor(message: string) {
    super(message)
    this.name = 'StorageFullError'
  }
}
