import {
  checkOptions,
  releaseStoreOf,
  attachStore,
  withoutNulls,
} from './sandbox-options.js'
import { SandboxOwner } from './sandbox-owner.js'
import type { Sandbox, SandboxOptions } from './world/sandbox-types.js'

export { DEFAULT_COUNT, DEFAULT_JOURNAL_SIZE, DEFAULT_SEED } from './sandbox-options.js'
export type {
  Sandbox,
  SandboxOptions,
  SandboxState,
  SessionInfo,
  World,
} from './world/sandbox-types.js'
export type { PersistedState } from './data/store.js'

/**
 * Creates a sandbox of the Pet Adoption Service v1 API. Synchronous: the data is seeded
 * in the background and every handler waits for it.
 *
 * Its state has one owner, a SandboxOwner (sandbox-owner.ts): keys, scenarios, seeds,
 * the pet quota, the journal budget, the session registry. Each world (the default one,
 * every session) is a SandboxWorld (world/world.ts); the sandbox returned is the default
 * world itself, with what is the whole sandbox's (default-sandbox.ts).
 *
 * @example
 * import { createSandbox } from 'petstore-sandbox'
 * const sandbox = createSandbox({ seed: 42, count: 20 })
 * const server = setupServer(...sandbox.handlers)
 * @see docs/options.md#createsandbox
 */
export function createSandbox(given: SandboxOptions = {}): Sandbox {
  const options = withoutNulls(given)
  try {
    checkOptions(options)
    const sandbox = new SandboxOwner(options).main
    // A store that holds data (a file) restores it now: requests wait for it.
    if (options.store) attachStore(options.store, sandbox)
    return sandbox
  } catch (error) {
    // A bad option: the store it was given serves no sandbox, and a file store's lock
    // would stay held until the process exits (the corrected call would find the file
    // locked by this very process). The store is the caller's: it lets go of its lock
    // and stays usable; it is not closed.
    releaseStoreOf(options)
    throw error
  }
}
