import {
  closeSync,
  constants,
  fstatSync,
  lstatSync,
  openSync,
  readdirSync,
  readFileSync,
  readlinkSync,
  rmSync,
  statSync,
} from 'node:fs'
import { basename, dirname, join, resolve } from 'node:path'
import { SandboxError, type SandboxErrorCode } from '../../core/common/errors.js'
import { decodeStateFile, parseStateFile, type LoadedState } from './format.js'
import { O_NOFOLLOW, O_NONBLOCK } from './fs.js'
import { acquireFileLock, FileLockedError, lockPathOf, type FileLock } from './lock.js'
import { capitalized, useAnother, withPath, type PathOption } from './wording.js'

// Opening the state file, synchronously, when its store is created: what the path may
// be, its lock, the leftovers beside it, reading it, and (later) whether it is still
// the file that was read.

/** The leftovers of a rewrite cut short: `.state.json.<hex>.tmp` (a pid before issue 14). */
const temporaryName = (file: string) =>
  new RegExp(`^\\.${escape(basename(file))}\\.[0-9a-f]+\\.tmp$`)

/** The identity of the file as read, to see that nobody wrote it since; null: absent. */
export type Seen = { ino: number; size: number; mtimeMs: number } | null

/**
 * The state path must be a regular file or nothing. A symbolic link is refused rather
 * than followed: the rename of a rewrite would replace the link by a plain file, and a
 * link planted between two starts would send the writes elsewhere.
 */
export function checkPath(file: string, option: PathOption) {
  let stats
  try {
    stats = lstatSync(file)
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return
    throw storageError(
      'FILE_NOT_READABLE',
      `Failed to read the state file ${file}: ${(error as Error).message}. Check its folder's permissions, or ${useAnother(option)}.`,
    )
  }
  if (stats.isSymbolicLink()) {
    let target = 'elsewhere'
    try {
      target = resolve(dirname(file), readlinkSync(file))
    } catch {
      // The message says "elsewhere".
    }
    throw storageError(
      'FILE_NOT_READABLE',
      `Failed to use the state file ${file}: it is a symbolic link (to ${target}), and the sandbox does not write through links. ${capitalized(useAnother(option, 'the file itself'))}${target === 'elsewhere' ? '' : ` (${withPath(option, target)})`}.`,
    )
  }
  if (!stats.isFile()) {
    const kind = stats.isDirectory()
      ? 'a folder'
      : stats.isFIFO()
        ? 'a FIFO (named pipe)'
        : stats.isSocket()
          ? 'a socket'
          : stats.isCharacterDevice() || stats.isBlockDevice()
            ? 'a device'
            : 'not a regular file'
    throw storageError(
      'FILE_NOT_READABLE',
      `Failed to use the state file ${file}: it is ${kind}, not a regular file. ${capitalized(useAnother(option, 'a file'))} (it is created if missing).`,
    )
  }
}

/** Whether the file is still the one `seen` describes (or still absent). */
export function sameFile(file: string, seen: Seen) {
  try {
    const now = statSync(file)
    return (
      seen !== null &&
      now.ino === seen.ino &&
      now.size === seen.size &&
      now.mtimeMs === seen.mtimeMs
    )
  } catch (error) {
    return seen === null && (error as NodeJS.ErrnoException).code === 'ENOENT'
  }
}

/**
 * Removes temporary files an earlier process left when it was stopped mid-rewrite: they
 * never replaced the state file, so they hold nothing it lacks.
 */
export function removeLeftovers(file: string) {
  const pattern = temporaryName(file)
  try {
    for (const name of readdirSync(dirname(file))) {
      if (!pattern.test(name)) continue
      const path = join(dirname(file), name)
      if (lstatSync(path).isDirectory()) continue
      rmSync(path, { force: true })
    }
  } catch {
    // An unreadable folder: the first rewrite reports it.
  }
}

function escape(text: string) {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')
}

/**
 * The state file's lock (lock.ts) in the user's words: one owner per file. Another owner
 * is a SandboxError naming the file, the owner's pid (or "this process") and the way
 * out. A disk that has no room for the lock file (or a read-only file system) does
 * not stop the start: the file is served read-only, and the lock is tried again before
 * each write.
 */
export type StateLock = { lock: FileLock } | { readOnly: string }

/** The errors of a lock file that could not be written for want of room. */
const NO_ROOM = new Set(['ENOSPC', 'EDQUOT', 'EROFS'])

/** Locks `file` (absolute) for this server, or says why it is read-only. */
export function lockStateFile(file: string, option: PathOption): StateLock {
  try {
    return { lock: acquireFileLock(file) }
  } catch (error) {
    if (error instanceof FileLockedError)
      throw storageError('FILE_LOCKED', lockedMessage(error, option), error)
    const code = (error as NodeJS.ErrnoException).code ?? ''
    if (NO_ROOM.has(code)) {
      return {
        readOnly: `its lock ${lockPathOf(file)} could not be created (${(error as Error).message})`,
      }
    }
    throw storageError(
      'STORAGE_FAILED',
      `Failed to write the state file ${file}: its lock ${lockPathOf(file)} could not be created (${(error as Error).message}). Check that its folder exists and is writable.`,
      error,
    )
  }
}

/** The one line for a file that another owner holds. */
export function lockedMessage(error: FileLockedError, option: PathOption) {
  const { file, lockPath: lock, owner } = error
  const another = useAnother(option)
  const start = `Failed to use the state file ${file}:`
  switch (error.reason) {
    case 'this-process':
      return `${start} this process uses it already (another store on the same file; its lock is ${lock}). Close that one first (its close()), or use another file.`
    case 'unreadable':
      return `${start} its lock ${lock} exists but names no owner. If no server uses the file, delete ${lock} and start again; or ${another}.`
    case 'other-host':
      return `${start} process ${owner?.pid} on host ${owner?.hostname} uses it (since ${owner?.since}; its lock is ${lock}), and a process on another host cannot be checked from here. Stop that server, or ${another}; if none runs there any more, delete ${lock}.`
    default:
      return owner
        ? `${start} another server uses it (process ${owner.pid}, since ${owner.since}; its lock is ${lock}). Stop that server, or ${another}. If no petstore-sandbox runs as process ${owner.pid} (a pid reused after a crash), delete ${lock} and start again.`
        : `${start} another server is taking its lock ${lock} over. Stop the other server, or ${another}.`
  }
}

/** A SandboxError with a message built already ("Failed to <action>: <reason>. <fix>."). */
export function storageError(code: SandboxErrorCode, message: string, cause?: unknown) {
  return new SandboxError(code, message, cause === undefined ? undefined : { cause })
}

/** What opening saw of the file, for the restore that follows (see the writer's adopt). */
export interface ReadFile {
  version: 1 | 2
  /** The acknowledged bytes: all but a torn last line. */
  bytes: number
  torn: boolean
  /** The last line, kept, has no newline: the writer adds one before appending. */
  unterminated: boolean
  pets: number
}

/** The state file, opened: its lock (or why it is read-only), and what it holds. */
export interface OpenedFile {
  lock: FileLock | undefined
  /** Why the store writes nothing (no lock for want of room), or undefined. */
  readOnly: string | undefined
  /** What the file holds; undefined when it does not exist yet. */
  loaded: LoadedState | undefined
  read: ReadFile | undefined
  seen: Seen
}

/**
 * Locks the file, then reads it. Refuses (SandboxError) a file another owner holds, a
 * path that is a symbolic link or not a regular file (a FIFO, a folder, a device), and
 * a file that is corrupt or foreign (left untouched); the lock is released then. Removes
 * the temporary files of a process killed mid-rewrite.
 */
export function openStateFile(
  file: string,
  option: PathOption,
  notice: (line: string) => void,
): OpenedFile {
  checkPath(file, option)
  const taken = lockStateFile(file, option)
  const lock = 'lock' in taken ? taken.lock : undefined
  const readOnly = 'readOnly' in taken ? taken.readOnly : undefined
  // Only the owner removes them: another server's rewrite may be under way.
  if (lock) removeLeftovers(file)
  else
    notice(
      `${file}: read-only, ${readOnly}. The pets it holds are served; creates answer 507 storage_failed until there is room (the lock is tried again at each create).`,
    )
  try {
    return { lock, readOnly, ...readStateFile(file, option, notice) }
  } catch (error) {
    lock?.release()
    throw error
  }
}

function readStateFile(file: string, option: PathOption, notice: (line: string) => void) {
  let raw: Buffer
  let seen: Seen = null
  let links = 1
  try {
    // O_NONBLOCK: a FIFO put there after the check does not hang the start.
    const readFd = openSync(file, constants.O_RDONLY | O_NOFOLLOW | O_NONBLOCK)
    try {
      const stats = fstatSync(readFd)
      if (!stats.isFile()) throw new Error('it is not a regular file')
      links = stats.nlink
      seen = { ino: stats.ino, size: stats.size, mtimeMs: stats.mtimeMs }
      raw = readFileSync(readFd)
    } finally {
      closeSync(readFd)
    }
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT')
      return { loaded: undefined, read: undefined, seen }
    throw storageError(
      'FILE_NOT_READABLE',
      `Failed to read the state file ${file}: ${(error as Error).message}. Check its permissions, or ${useAnother(option)}.`,
      error,
    )
  }
  if (links > 1)
    throw storageError(
      'FILE_NOT_READABLE',
      `Failed to use the state file ${file}: it has ${links} names (hard links), and its lock is taken by name, so a server started on another name could write over this one's creates. Give the file one name (copy it, or remove the other links), or ${useAnother(option)}.`,
    )
  const loaded = parseStateFile(decodeStateFile(raw, file, option), file, option)
  // Counted on the bytes, as the writer counts them: a torn line ends the file.
  const bytes = loaded.torn ? raw.lastIndexOf(0x0a) + 1 : raw.length
  const read: ReadFile = {
    version: loaded.version,
    bytes,
    torn: loaded.torn !== undefined,
    unterminated: loaded.unterminated !== undefined,
    pets: loaded.state.pets.length,
  }
  if (loaded.torn) {
    notice(
      `${file}: its last line (line ${loaded.torn.line}, ${raw.length - bytes} bytes) was cut short by a stop in the middle of a write, before any answer: dropped.`,
    )
  }
  if (loaded.unterminated) {
    notice(
      `${file}: its last line (line ${loaded.unterminated.line}) holds a whole pet but no newline at its end: kept, and the newline is added before the next create.`,
    )
  }
  return { loaded, read, seen }
}
