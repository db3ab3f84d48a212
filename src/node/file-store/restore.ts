import { SandboxError } from '../../core/common/errors.js'
import type { Sandbox } from '../../core/sandbox.js'
import { StoreWriteError } from '../../core/data/store.js'
import type { LoadedState } from './format.js'
import type { StoreWriter } from './writer.js'

/**
 * Brings the sandbox's pets back from the file as it was read (`importState`, which
 * writes them back through the store: a state@1 file is migrated there), or writes a new
 * file at once, so an unwritable folder shows at start, not at the first create.
 * Resolves to whether the pets came from the file; rejects with a SandboxError
 * (STORAGE_FAILED) when the file could not be written.
 *
 * Called synchronously by `createSandbox` (through the store's `attach`): `importState`
 * sets the data requests wait for before this returns its promise.
 */
export async function restoreFromFile(
  sandbox: Sandbox,
  file: string,
  loaded: LoadedState | undefined,
  writer: StoreWriter,
): Promise<boolean> {
  if (loaded === undefined) {
    await sandbox.ready
    try {
      await writer.save(sandbox.exportState())
    } catch (error) {
      throw unwritable(file, error)
    }
    return false
  }
  try {
    await sandbox.importState(loaded.state, file)
  } catch (error) {
    if (error instanceof StoreWriteError) throw unwritable(file, error.cause)
    throw error
  }
  return true
}

function unwritable(file: string, cause: unknown) {
  return new SandboxError(
    'STORAGE_FAILED',
    `Failed to write the state file ${file}: ${(cause as Error).message}. Check that its folder exists and is writable.`,
    { cause },
  )
}
