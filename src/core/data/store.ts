import { SandboxError } from '../common/errors.js'
import { truncate } from '../common/text.js'
import type { Sandbox } from '../world/sandbox-types.js'
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
 * Where a sandbox keeps its default data beyond memory (the CLI's `--persist` file is
 * one). The sandbox writes every change through it, after applying it in memory, in the
 * order of the changes, and waits for it:
 * - a create is answered 201 only once `write` returns (or its promise resolves); if it
 *   throws or rejects, the pet is removed again, never listed nor served, and the request
 *   is answered 507 `storage_failed`. Its id is not reused.
 * - `reset()`, `reloadFixtures()` and `importState()` write a `replace`; if that fails,
 *   they reject with a {@link StoreWriteError} (the data in memory is changed anyway).
 *
 * `state()` reads the data when it is called: it may hold pets whose own create is still
 * being written, never one whose write failed before. A store that writes whole
 * snapshots must therefore write them in the order it received them (a synchronous
 * `write` does). Only the default data goes through the store: datasets of scenarios
 * (such as `empty-store`) and sessions live in memory.
 *
 * @example
 * const changes: StoreChange[] = []
 * const sandbox = createSandbox({ store: { write: (change) => void changes.push(change) } })
 * @see docs/persistence.md#persistence-stores
 */
export interface SandboxStore {
  write(change: StoreChange): void | Promise<void>
  /**
   * Called once by `createSandbox`, with the new sandbox, before it is returned: a store
   * that holds data brings it back here (`sandbox.importState`, which requests wait
   * for). Throwing makes `createSandbox` throw. `createFileStore` (petstore-sandbox/node)
   * restores its file here, and refuses a second sandbox.
   */
  attach?(sandbox: Sandbox): void
  /**
   * Called by a `createSandbox` that throws (a bad option) before any sandbox took the
   * store: let go of what it holds (a file's lock) and stay usable, so the corrected
   * call, with this store or a new one on the same file, can take it. The store stays
   * the caller's: `createSandbox` never closes a store it did not attach.
   */
  release?(): void
  /**
   * Waits for the writes under way, then releases what the store holds (a file's lock);
   * `sandbox.close()` calls it.
   */
  close?(): Promise<void>
}

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

/** Stores given to a sandbox (`attach`): a later createSandbox that fails leaves them alone. */
const attachedStores = new WeakSet<object>()

/** Gives the store to its new sandbox, which then holds it (`attach`, a file's restore). */
export function attachStore(store: SandboxStore, sandbox: Sandbox): void {
  attachedStores.add(store)
  store.attach?.(sandbox)
}

/**
 * The options could not make a sandbox (createSandbox threw, or an entry refused them
 * before it): their store, given to no sandbox, lets go of what it holds (a file's lock)
 * and stays usable. Every entry that refuses options calls it; a store's failure to
 * release is not the caller's error, which is the option's.
 */
export function releaseStoreOf(options: unknown): void {
  const store = (options as { store?: unknown } | null | undefined)?.store
  if (!store || typeof store !== 'object' || attachedStores.has(store)) return
  try {
    ;(store as SandboxStore).release?.()
  } catch {
    // The option error is what the caller needs to hear.
  }
}
