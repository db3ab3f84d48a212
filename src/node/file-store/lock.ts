import { createHash, randomBytes } from 'node:crypto'
import {
  closeSync,
  constants,
  linkSync,
  openSync,
  readFileSync,
  renameSync,
  unlinkSync,
  writeSync,
} from 'node:fs'
import { hostname } from 'node:os'
import { basename, dirname, join } from 'node:path'

/**
 * One owner per file, across processes: a lock file beside it, `<file>.lock`, holding its
 * owner as one JSON line. Node has no flock, and a lock file is what works everywhere
 * (network and container file systems included) without a native module:
 *
 * - Taking it: the owner line is written to a temporary file, then hard-linked to
 *   `<file>.lock`; link() fails if the lock exists, so two processes never both create it,
 *   and nobody ever reads a half-written lock. (Where a file system has no hard links, an
 *   O_EXCL create, then the write.)
 * - A lock whose owner is gone is taken over: same host and `process.kill(pid, 0)` says
 *   ESRCH, or the pid is this process's own but this process does not hold the lock (a
 *   restarted container, where the server is pid 1 again). The takeover first creates a
 *   claim named after the stale lock's content (O_EXCL: one claimant per stale lock),
 *   checks that the lock still holds that content, and renames its own lock over it; two
 *   processes racing for one stale lock cannot both win.
 * - Held: the owner runs (or its pid does; see below), runs on another host (its pid
 *   cannot be checked from here), or the lock does not name an owner.
 * - Released: by `release()`, and at the process's exit (a normal exit or
 *   `process.exit`); a SIGKILL leaves it, and the next owner takes it over.
 *
 * Pid reuse is handled conservatively: a lock whose pid now belongs to another live
 * process (after a crash and a reboot, say) counts as held, and the error says to delete
 * the lock file when no owner runs. A stranger's process keeps a file locked; two owners
 * never share it. A claimant killed in the microseconds of a takeover leaves a claim that
 * the next claimant removes once its pid is gone; only two processes racing for the same
 * stale claim then could both win, which takes two kills in that window.
 */
export interface FileLock {
  /** The lock file: `<file>.lock`. */
  readonly path: string
  /** What the lock file holds. */
  readonly owner: LockOwner
  /** Removes the lock file if it is still this lock's; later calls do nothing. */
  release(): void
}

/** The owner a lock file names. */
export interface LockOwner {
  pid: number
  hostname: string
  /** When the lock was taken (ISO 8601). */
  since: string
  /** Random: tells this lock from an earlier one of the same pid. */
  token: string
}

/** Why a lock counts as held. */
export type LockHeldReason =
  /** Its pid is a live process on this host (or one that this user may not signal). */
  | 'running'
  /** Its owner runs on another host: its pid cannot be checked from here. */
  | 'other-host'
  /** This process holds it already. */
  | 'this-process'
  /** The lock file exists but names no owner (not written by this module). */
  | 'unreadable'

/** The file is locked by another owner; `owner` is who, when the lock says. */
export class FileLockedError extends Error {
  readonly code = 'ELOCKED'

  constructor(
    /** The locked file. */
    readonly file: string,
    /** Its lock file. */
    readonly lockPath: string,
    readonly reason: LockHeldReason,
    readonly owner?: LockOwner,
  ) {
    super(
      `${file} is locked by ${owner ? describeOwner(owner) : 'an unknown owner'} (${lockPath}, ${reason})`,
    )
    this.name = 'FileLockedError'
  }
}

/** The lock file of `file`. */
export const lockPathOf = (file: string) => `${file}.lock`

/** "process 123 on host x since <time>". */
export function describeOwner(owner: LockOwner) {
  return `process ${owner.pid} on host ${owner.hostname} since ${owner.since}`
}

// The locks this process holds, by lock path: a second lock on one file in the same
// process is refused too, and all are released at exit.
const held = new Map<string, FileLock>()
let exitHook = false

/**
 * Locks `file` (an absolute path) for this process. Throws a {@link FileLockedError} if
 * another owner holds it, or the file system's error (ENOSPC, EROFS, EACCES, ENOENT for a
 * missing folder...) if the lock file cannot be written.
 */
export function acquireFileLock(file: string): FileLock {
  const path = lockPathOf(file)
  const mine = held.get(path)
  if (mine) throw new FileLockedError(file, path, 'this-process', mine.owner)
  const owner: LockOwner = {
    pid: process.pid,
    hostname: hostname(),
    since: new Date().toISOString(),
    token: randomBytes(8).toString('hex'),
  }
  const content = `${JSON.stringify(owner)}\n`
  // A few rounds: a lock released, or taken over by another, between two looks.
  // Looks before it writes: a held lock is refused as such even on a full disk.
  for (let round = 0; round < 5; round++) {
    const found = readLock(path)
    if (found === undefined) {
      if (create(path, content)) return hold(path, owner, content)
      continue
    }
    const reason = heldBecause(found.owner)
    if (reason) throw new FileLockedError(file, path, reason, found.owner)
    if (takeOver(file, path, found.raw, content)) return hold(path, owner, content)
  }
  const last = readLock(path)
  throw new FileLockedError(file, path, 'running', last?.owner)
}

function hold(path: string, owner: LockOwner, content: string): FileLock {
  const lock: FileLock = {
    path,
    owner,
    release() {
      if (held.get(path) !== lock) return
      held.delete(path)
      // Only this lock's own file: never one that replaced it (a user's delete, then
      // another server).
      if (readLock(path)?.raw === content) removeQuietly(path)
    },
  }
  held.set(path, lock)
  if (!exitHook) {
    exitHook = true
    process.on('exit', () => {
      for (const one of [...held.values()]) one.release()
    })
  }
  return lock
}

/** Creates the lock with `content` if there is none; false if there is one. */
function create(path: string, content: string): boolean {
  const temporary = temporaryPath(path)
  writeNew(temporary, content)
  try {
    linkSync(temporary, path)
    return true
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code
    if (code === 'EEXIST') return false
    if (code !== 'EPERM' && code !== 'ENOTSUP' && code !== 'ENOSYS') throw error
    // No hard links here (FAT, some network shares): an exclusive create instead.
    try {
      writeNew(path, content)
      return true
    } catch (excl) {
      if ((excl as NodeJS.ErrnoException).code === 'EEXIST') return false
      throw excl
    }
  } finally {
    removeQuietly(temporary)
  }
}

/**
 * Replaces the stale lock (`stale` its content) by a new one; false if another process
 * took it over or changed it first.
 */
function takeOver(file: string, path: string, stale: string, content: string): boolean {
  const digest = createHash('sha256').update(stale).digest('hex').slice(0, 16)
  const claim = `${path}.${digest}.claim`
  try {
    writeNew(claim, content)
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error
    // Another process is taking this lock over, or was killed doing it.
    const claimant = readLock(claim)
    if (claimant?.owner && heldBecause(claimant.owner) === undefined) {
      removeQuietly(claim)
      return false
    }
    throw new FileLockedError(file, path, 'running', claimant?.owner)
  }
  try {
    // Only the claimant of this stale content may replace it, and nobody creates a lock
    // where one exists: if it still holds `stale`, it does until the rename.
    if (readLock(path)?.raw !== stale) return false
    const temporary = temporaryPath(path)
    try {
      writeNew(temporary, content)
      renameSync(temporary, path)
    } catch (error) {
      removeQuietly(temporary)
      throw error
    }
    return true
  } finally {
    removeQuietly(claim)
  }
}

/** Why `owner`'s lock counts as held, or undefined when its owner is gone. */
function heldBecause(owner: LockOwner | undefined): LockHeldReason | undefined {
  if (!owner) return 'unreadable'
  if (owner.hostname !== hostname()) return 'other-host'
  // This pid, but not a lock of this process (held would have it): an earlier process
  // that had the same pid, as a restarted container's pid 1.
  if (owner.pid === process.pid) return undefined
  try {
    process.kill(owner.pid, 0)
    return 'running'
  } catch (error) {
    // EPERM: the process exists but belongs to another user.
    return (error as NodeJS.ErrnoException).code === 'ESRCH' ? undefined : 'running'
  }
}

/** The lock's raw content and its owner (undefined if it names none); undefined if absent. */
function readLock(path: string): { raw: string; owner?: LockOwner } | undefined {
  let raw: string
  try {
    raw = readFileSync(path, 'utf8')
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined
    throw error
  }
  try {
    const value = JSON.parse(raw) as Partial<LockOwner>
    if (
      Number.isSafeInteger(value.pid) &&
      (value.pid as number) > 0 &&
      typeof value.hostname === 'string' &&
      typeof value.since === 'string' &&
      typeof value.token === 'string'
    )
      return { raw, owner: value as LockOwner }
  } catch {
    // Not JSON: no owner named.
  }
  return { raw }
}

/**
 * Creates `path` (it must not exist, mode 0600) holding `content`; removes it if the
 * write fails.
 */
function writeNew(path: string, content: string) {
  const O_NOFOLLOW = constants.O_NOFOLLOW ?? 0
  const fd = openSync(
    path,
    constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | O_NOFOLLOW,
    // Its owner's only, as the state file beside it (its token tells this lock apart).
    0o600,
  )
  try {
    const data = Buffer.from(content)
    let written = 0
    while (written < data.byteLength)
      written += writeSync(fd, data, written, data.byteLength - written)
  } catch (error) {
    closeSync(fd)
    removeQuietly(path)
    throw error
  }
  closeSync(fd)
}

const temporaryPath = (path: string) =>
  join(dirname(path), `.${basename(path)}.${randomBytes(8).toString('hex')}.tmp`)

function removeQuietly(path: string) {
  try {
    unlinkSync(path)
  } catch {
    // Gone already, or not ours to remove: nothing to undo.
  }
}
