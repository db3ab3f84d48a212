import {
  closeSync,
  fsyncSync,
  openSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  writeSync,
} from 'node:fs'
import { basename, dirname, join, resolve } from 'node:path'
import { SandboxError } from '../core/errors.js'
import type { Sandbox } from '../core/sandbox.js'
import {
  StoreWriteError,
  type PersistedState,
  type SandboxStore,
  type StoreChange,
} from '../core/store.js'
import { CliError } from './cli-error.js'

/**
 * The `--persist` file as a sandbox store: the whole state in one JSON file (format
 * `petstore-sandbox/state@1`), rewritten atomically for every change the sandbox writes
 * through it. Synchronous, so the changes reach the disk in the order they were made,
 * and a create's 201 leaves only once its pet is on disk.
 */
export interface FileStore extends SandboxStore {
  /** The absolute path of the state file. */
  readonly file: string
  /**
   * The file's content, parsed; undefined when it does not exist yet. Removes the
   * temporary files of a process killed mid-write. Throws a CliError for a file that
   * cannot be read or is not JSON (left untouched).
   */
  read(): unknown
  /** Writes this state now: the new file at start, the flush at shutdown. */
  save(state: PersistedState): void
}

/**
 * Creates the store of the `--persist` file at `path`; nothing is read or written yet.
 * `onFailure` hears every write that failed (the request gets 507 `storage_failed`).
 */
export function createFileStore(
  path: string,
  onFailure: (error: Error, change: StoreChange) => void = () => {},
): FileStore {
  const file = resolve(path)
  const save = (state: PersistedState) =>
    writeFileAtomically(file, `${JSON.stringify(state, null, 2)}\n`)
  return {
    file,
    read() {
      removeLeftovers(file)
      let text: string
      try {
        text = readFileSync(file, 'utf8')
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined
        throw new CliError(
          `Failed to read the state file ${file}: ${(error as Error).message}. Check its permissions, or point --persist at another file.`,
        )
      }
      try {
        return JSON.parse(text)
      } catch (error) {
        throw new CliError(
          `Failed to restore the state from ${file}: it is ${text.trim() === '' ? 'empty' : `not valid JSON (${(error as Error).message})`}, so it was left untouched. Point --persist at a new file, or delete this one to start from the seeded data.`,
        )
      }
    },
    save,
    write(change) {
      try {
        save(change.state())
      } catch (error) {
        onFailure(error as Error, change)
        throw error
      }
    },
  }
}

/**
 * Brings the sandbox's pets back from the store's file (`importState`, which writes
 * them back through the store), or writes a new file at once, so an unwritable folder
 * fails at start, not at the first create. Resolves to whether the pets came from the
 * file. A corrupt or foreign file is refused and left as it is.
 */
export async function restoreFromFile(sandbox: Sandbox, store: FileStore) {
  const state = store.read()
  if (state === undefined) {
    try {
      store.save(sandbox.exportState())
    } catch (error) {
      throw unwritable(store.file, error)
    }
    return false
  }
  try {
    await sandbox.importState(state, store.file)
  } catch (error) {
    if (error instanceof StoreWriteError) throw unwritable(store.file, error.cause)
    if (error instanceof SandboxError) throw new CliError(error.message)
    throw error
  }
  return true
}

function unwritable(file: string, cause: unknown) {
  return new CliError(
    `Failed to write the state file ${file}: ${(cause as Error).message}. Check that its folder exists and is writable.`,
  )
}

/**
 * Removes temporary files an earlier process left when it was killed mid-write: they
 * never replaced the state file, so they hold nothing it lacks.
 */
function removeLeftovers(file: string) {
  const prefix = `.${basename(file)}.`
  try {
    for (const name of readdirSync(dirname(file))) {
      if (name.startsWith(prefix) && name.endsWith('.tmp')) {
        rmSync(join(dirname(file), name), { force: true })
      }
    }
  } catch {
    // An unreadable folder: the first save reports it.
  }
}

/**
 * Writes a temporary file in the same folder, flushes it to disk and renames it over
 * the target: a kill at any moment leaves the old or the new file, never half of one.
 */
export function writeFileAtomically(file: string, content: string) {
  const temporary = join(dirname(file), `.${basename(file)}.${process.pid}.tmp`)
  try {
    const fd = openSync(temporary, 'w', 0o644)
    try {
      writeSync(fd, content)
      fsyncSync(fd)
    } finally {
      closeSync(fd)
    }
    renameSync(temporary, file)
  } catch (error) {
    try {
      rmSync(temporary, { force: true })
    } catch {
      // What failed is the write; the next start removes what is left.
    }
    throw error
  }
  // The rename itself is durable only once the folder is flushed too.
  try {
    const folder = openSync(dirname(file), 'r')
    try {
      fsyncSync(folder)
    } finally {
      closeSync(folder)
    }
  } catch {
    // Some file systems refuse to fsync a folder; the rename is still atomic.
  }
}
