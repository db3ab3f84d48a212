import {
  acquireFileLock,
  FileLockedError,
  lockPathOf,
  type FileLock,
} from '../node/file-lock.js'
import { CliError } from './cli-error.js'

/**
 * The `--persist` file's lock (src/node/file-lock.ts) in the CLI's words: one server per
 * file. Another owner is a CliError (exit 1) naming the file, the owner's pid and the
 * way out. A disk that has no room for the lock file (or a read-only file system) does
 * not stop the start: the file is served read-only, and the lock is tried again before
 * each write.
 */
export type StateLock = { lock: FileLock } | { readOnly: string }

/** The errors of a lock file that could not be written for want of room. */
const NO_ROOM = new Set(['ENOSPC', 'EDQUOT', 'EROFS'])

/** Locks `file` (absolute) for this server, or says why it is read-only. */
export function lockStateFile(file: string): StateLock {
  try {
    return { lock: acquireFileLock(file) }
  } catch (error) {
    if (error instanceof FileLockedError) throw new CliError(lockedMessage(error))
    const code = (error as NodeJS.ErrnoException).code ?? ''
    if (NO_ROOM.has(code)) {
      return {
        readOnly: `its lock ${lockPathOf(file)} could not be created (${(error as Error).message})`,
      }
    }
    throw new CliError(
      `Failed to write the state file ${file}: its lock ${lockPathOf(file)} could not be created (${(error as Error).message}). Check that its folder exists and is writable.`,
    )
  }
}

/** The CLI's one line for a file that another owner holds. */
export function lockedMessage(error: FileLockedError) {
  const { file, lockPath: lock, owner } = error
  const start = `Failed to use the state file ${file}:`
  switch (error.reason) {
    case 'this-process':
      return `${start} this process uses it already (another store on the same file; its lock is ${lock}). Close that one first (its close()), or use another file.`
    case 'unreadable':
      return `${start} its lock ${lock} exists but names no owner. If no server uses the file, delete ${lock} and start again; or point --persist at another file.`
    case 'other-host':
      return `${start} process ${owner?.pid} on host ${owner?.hostname} uses it (since ${owner?.since}; its lock is ${lock}), and a process on another host cannot be checked from here. Stop that server, or point --persist at another file; if none runs there any more, delete ${lock}.`
    default:
      return owner
        ? `${start} another server uses it (process ${owner.pid}, since ${owner.since}; its lock is ${lock}). Stop that server, or point --persist at another file. If no petstore-sandbox runs as process ${owner.pid} (a pid reused after a crash), delete ${lock} and start again.`
        : `${start} another server is taking its lock ${lock} over. Stop the other server, or point --persist at another file.`
  }
}
