import { SandboxError } from '../common/errors.js'
import { truncate } from '../common/text.js'
import type { Pet } from '../common/schemas.js'

/**
 * The format tag of a state as `exportState()` gives it and `importState()` takes it (and
 * of the whole-JSON `--persist` files before issue 14, which still load; the file itself
 * is `petstore-sandbox/state@2` JSON lines now, see src/node/file-store/format.ts).
 */
export const STATE_FORMAT = 'petstore-sandbox/state@1'

/** The pets of the default data, as `--persist` stores them. */
export interface PersistedState {
  format: typeof STATE_FORMAT
  seed: number
  count: number
  pets: Pet[]
}

/**
 * A pet created by a request. `pet` is the change itself, so a store that appends (a
 * log) never needs more; `state()` is there for a store that writes whole snapshots.
 */
export interface StoreCreateChange {
  type: 'create'
  pet: Pet
  /** The whole state now, this pet included; built only when called. */
  state(): PersistedState
}

/**
 * The whole data was replaced: `reset` (back to the seeded pets), `reload` (new fixtures,
 * created pets kept) or `restore` (`importState`, e.g. from the `--persist` file at
 * start). A log would write a snapshot here and may drop what it held before.
 */
export interface StoreReplaceChange {
  type: 'replace'
  reason: 'reset' | 'reload' | 'restore'
  /** The whole state now; built only when called. */
  state(): PersistedState
}

/** What a sandbox asks its store to make durable. */
export type StoreChange = StoreCreateChange | StoreReplaceChange

/**
 * A store's `write` failed: the change is applied in memory but not durable. A create
 * answers it as 507 `storage_failed` with this message; `reset()`, `reloadFixtures()`
 * and `importState()` reject with it. `cause` is what the store threw.
 *
 * @example
 * try { await sandbox.reset() } catch (error) {
 *   if (error instanceof StoreWriteError) console.error(error.message, error.cause)
 * }
 * @see docs/persistence.md#persistence-stores
 */
export class StoreWriteError extends SandboxError {
  /** How the request path answers it (api-errors.ts `failureOf`). */
  readonly apiCode = 'storage_failed'
  /** The change that could not be written. */
  readonly change: StoreChange

  constructor(change: StoreChange, cause: unknown) {
    const reason = truncate(
      cause instanceof Error ? cause.message : String(cause),
      200,
    ).replace(/\.$/, '')
    super(
      'STORAGE_FAILED',
      change.type === 'create'
        ? `Failed to create the pet: the sandbox could not write its state durably (${reason}), so nothing was stored. Free disk space or fix the state file (--persist), then send the request again.`
        : `Failed to write the state after ${change.reason === 'restore' ? 'the restore' : `the ${change.reason}`}: ${reason}. The data is changed in memory, but the store still holds the previous state, which a restart would bring back. Fix the store (disk space, the --persist file), then ${change.reason === 'reload' ? 'reload' : change.reason} again.`,
      { cause },
    )
    this.name = 'StoreWriteError'
    this.change = change
  }
}
