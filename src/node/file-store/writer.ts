import { constants } from 'node:fs'
import { dirname } from 'node:path'
import type {
  PersistedState,
  StoreChange,
  StoreCreateChange,
} from '../../core/data/store.js'
import { encodePet, encodeState } from './format.js'
import { nodeStoreFs, O_NOFOLLOW, type StoreFs } from './fs.js'
import { fsyncFolder, writeAnew, writeFully } from './write-anew.js'
import type { FileLock } from './lock.js'
import { lockStateFile, sameFile, type OpenedFile, type ReadFile } from './open.js'
import type { PathOption } from './wording.js'

/**
 * The writes of a state file (format.ts), once it is open (open.ts). A create appends
 * its pet's line and is acknowledged once that line is fsynced; the creates that arrive
 * while a write is under way share the next write and fsync (group commit), so a burst
 * costs one fsync per group and no create touches more than its own bytes. A `replace`
 * (reset, reload, the restore at start) rewrites the whole file: a temporary file with a
 * random name (O_EXCL, O_NOFOLLOW, mode 0600), fsynced, renamed over the state file, the
 * folder fsynced. A failed append is cut back off the file, so it holds exactly the
 * acknowledged pets; see docs/persistence.md#the-state-file (Design) for every failure.
 *
 * The restore of the file as it was read does not rewrite a state@2 file: its creates
 * are appended to it as it is, so a full disk does not stop a restart.
 */
export interface StoreWriter {
  /** Why the writer writes nothing (no lock at start: a full disk), or undefined. */
  readonly readOnly: string | undefined
  /** Writes a change; resolves once it is durable, rejects when it could not be. */
  write(change: StoreChange): Promise<void>
  /** Rewrites the file with this state now (the new file at start). */
  save(state: PersistedState): Promise<void>
  /** Resolves once every write asked for so far is done (or failed). */
  settled(): Promise<void>
  /** Waits for the writes under way, then closes the file and releases its lock. */
  close(): Promise<void>
}

export interface StoreWriterOptions {
  /** The file-system calls of the writes (node:fs); tests inject failures here. */
  fs?: StoreFs | undefined
  /** Hears what is worth a line but is no failure (a torn last line dropped, a migration). */
  notice: (line: string) => void
  /** Hears every failed write once (one line, however many creates it held). */
  onFailure: (error: Error, change: StoreChange) => void
  /** How messages name the way to choose the file. */
  option: PathOption
}

interface Job {
  change: StoreChange
  /** A replace's state, taken when it was asked for (no create is under way then). */
  state?: PersistedState
  resolve(): void
  reject(error: Error): void
}

/** Takes over the state file `opened` holds (its lock included) for writing. */
export function createStoreWriter(
  file: string,
  opened: OpenedFile,
  options: StoreWriterOptions,
): StoreWriter {
  const folder = dirname(file)
  const fs = options.fs ?? nodeStoreFs
  const { notice, onFailure, option } = options

  // The state file, opened by the last rewrite (its temporary file, renamed), and how
  // many of its bytes hold acknowledged data: appends go there.
  let fd: number | undefined
  let length = 0
  // What must be written before the next append, after a failure left the file behind:
  // the state of a replace that failed, or the acknowledged bytes of a file that could
  // not be cut back after a failed append.
  let recovery: { state: PersistedState } | 'prefix' | undefined
  let closed = false
  // The lock, or why there is none (read-only); what read() saw; a restore of a file
  // served read-only, to take up once the lock is.
  let lock: FileLock | undefined = opened.lock
  let readOnly: string | undefined = opened.readOnly
  let readFile: ReadFile | undefined = opened.read
  const seen = opened.seen
  let deferred: { read: ReadFile; state: PersistedState } | undefined

  const queue: Job[] = []
  let draining: Promise<void> | undefined

  const schedule = () => {
    // setImmediate, not a microtask: every create the server parsed in this turn of the
    // event loop joins the first group.
    draining ??= new Promise<void>((done) =>
      setImmediate(() => void drain().finally(done)),
    ).finally(() => {
      draining = undefined
      if (queue.length > 0) schedule()
    })
  }

  async function drain() {
    while (queue.length > 0) {
      const first = queue[0] as Job
      if (first.change.type === 'replace') {
        queue.shift()
        await runReplace(first)
        continue
      }
      let end = 1
      while (end < queue.length && queue[end]?.change.type === 'create') end++
      await runCreates(queue.splice(0, end))
    }
  }

  async function runReplace(job: Job) {
    const state = job.state as PersistedState
    const read = readFile
    readFile = undefined
    try {
      if (closed) throw closedError()
      if (
        read &&
        job.change.type === 'replace' &&
        job.change.reason === 'restore' &&
        state.pets.length === read.pets
      ) {
        // The restore of the file just read: serve it as it is, written or not.
        if (readOnly) deferred = { read, state }
        else await adopt(read, state)
        job.resolve()
        return
      }
      await writable()
      await rewrite(encodeState(state))
      recovery = undefined
      deferred = undefined
      job.resolve()
    } catch (error) {
      // The next append first writes this state: appending to the old file would mix
      // two states (and ids).
      recovery = { state }
      onFailure(error as Error, job.change)
      job.reject(error as Error)
    }
  }

  async function runCreates(jobs: Job[]) {
    try {
      if (closed) throw closedError()
      await writable()
      if (recovery) await recover()
      if (fd === undefined)
        throw new Error('the state file is not open (no state written yet)')
      await checkFile(fd)
      let text = ''
      for (const job of jobs) text += encodePet((job.change as StoreCreateChange).pet)
      await append(Buffer.from(text))
      for (const job of jobs) job.resolve()
    } catch (error) {
      const many =
        jobs.length > 1
          ? ` (${jobs.length} creates written together, all answered 507)`
          : ''
      onFailure(
        Object.assign(new Error(`${(error as Error).message}${many}`), { cause: error }),
        (jobs[0] as Job).change,
      )
      for (const job of jobs) job.reject(error as Error)
    }
  }

  /**
   * Before an append: is the open file still the state file as this writer left it? One
   * removed from its path (the folder cleaned) is written anew there from the
   * acknowledged bytes the open file still holds: a create acknowledged in a file no one
   * reads would be lost at the next start. One replaced by another file, or written by
   * another program (its size moved), is not written: a 507 says to restart the server
   * to serve what it holds, rather than writing over another's bytes.
   */
  async function checkFile(open: number) {
    const opened = await fs.fstat(open)
    let atPath
    try {
      atPath = await fs.stat(file)
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error
    }
    if (atPath !== undefined && (atPath.ino !== opened.ino || atPath.dev !== opened.dev))
      throw new Error(
        'another file was put at its path since this server opened it; restart the server to serve that one (or move it away to keep this server writing its own)',
      )
    if (atPath === undefined) {
      notice(`${file}: removed while this server ran; written anew from what it holds.`)
      recovery = 'prefix'
      await recover()
      return
    }
    if (opened.size !== length)
      throw new Error(
        `another program wrote it while this server ran (${opened.size} bytes where this server wrote ${length}); restart the server to serve what it holds`,
      )
  }

  /** Appends at the end of the acknowledged bytes; on failure, cuts the file back. */
  async function append(data: Buffer) {
    const start = length
    try {
      await writeFully(fs, fd as number, data, start)
      await fs.fsync(fd as number)
      length = start + data.byteLength
    } catch (error) {
      try {
        await fs.ftruncate(fd as number, start)
        await fs.fsync(fd as number)
      } catch (cut) {
        // The file may end with bytes no one acknowledged: the next write rewrites the
        // acknowledged ones into a new file first.
        recovery ??= 'prefix'
        throw new Error(
          `${(error as Error).message}; cutting the file back to its acknowledged ${start} bytes failed too (${(cut as Error).message}), so the next write rewrites it first`,
          { cause: error },
        )
      }
      throw error
    }
  }

  async function recover() {
    if (recovery === 'prefix') {
      const data = Buffer.allocUnsafe(length)
      let done = 0
      while (done < length) {
        const read = await fs.read(fd as number, data.subarray(done), done)
        if (read <= 0)
          throw new Error(
            `the state file is shorter than its acknowledged ${length} bytes`,
          )
        done += read
      }
      await rewrite(data)
    } else if (recovery) {
      await rewrite(encodeState(recovery.state))
    }
    recovery = undefined
  }

  /**
   * Takes the file read at start as it is: a state@2 file is opened to append to (a torn
   * last line cut off, a whole one given its newline), a state@1 file rewritten as
   * state@2. Nothing here is needed to
   * serve it: a failure (a full disk) leaves the file as it was, and the next create
   * rewrites it first (answered 507 until that works).
   */
  async function adopt(read: ReadFile, state: PersistedState) {
    try {
      if (read.version === 1) {
        await rewrite(encodeState(state))
        notice(
          `${file}: a petstore-sandbox/state@1 file, rewritten as state@2 (JSON lines).`,
        )
        return
      }
      fd = await fs.open(file, constants.O_RDWR | O_NOFOLLOW)
      length = read.bytes
    } catch (error) {
      recovery = { state }
      notice(
        `${file}: served as it is; ${read.version === 1 ? 'rewriting it as state@2' : 'opening it to append'} failed (${(error as Error).message}). The next create rewrites it first, and is answered 507 storage_failed until that works (free disk space).`,
      )
      return
    }
    if (read.unterminated) {
      try {
        await writeFully(fs, fd, Buffer.from('\n'), length)
        await fs.fsync(fd)
        length += 1
      } catch {
        // The next write rewrites the file first, every line with its newline.
        recovery = { state }
      }
    }
    if (!read.torn) return
    try {
      await fs.ftruncate(fd, read.bytes)
      await fs.fsync(fd)
    } catch {
      // The torn bytes stay after the acknowledged ones: the next write rewrites these.
      recovery = 'prefix'
    }
  }

  /**
   * Throws unless the store may write: read-only (no lock at start), it tries the lock
   * again, and then takes up the file, if nobody wrote it meanwhile.
   */
  async function writable() {
    if (!readOnly) return
    const taken = lockStateFile(file, option)
    if ('readOnly' in taken)
      throw new Error(`the state file is read-only: ${taken.readOnly}`)
    if (!sameFile(file, seen)) {
      taken.lock.release()
      throw new Error(
        'the state file is read-only: it changed since this server read it (another server wrote it); restart this server to serve what it holds',
      )
    }
    lock = taken.lock
    readOnly = undefined
    notice(`${file}: locked now (${lock.path}); writes go to the file again.`)
    // A replace that failed meanwhile (a reset) is rewritten before the next append:
    // the file as read is no longer the state to take up.
    if (deferred && !recovery) await adopt(deferred.read, deferred.state)
    deferred = undefined
  }

  /** The whole file anew (write-anew.ts): appends then go to the new file. */
  async function rewrite(content: string | Buffer) {
    const data = typeof content === 'string' ? Buffer.from(content) : content
    const renamed = await writeAnew(fs, file, data)
    const previous = fd
    fd = renamed
    length = data.byteLength
    if (previous !== undefined) await fs.close(previous).catch(ignore)
    await fsyncFolder(fs, folder)
  }

  const closedError = () => new Error('the state file is closed (its store was closed)')

  return {
    get readOnly() {
      return readOnly
    },
    save(state) {
      return new Promise<void>((resolve, reject) => {
        queue.push({
          change: { type: 'replace', reason: 'restore', state: () => state },
          state,
          resolve,
          reject,
        })
        schedule()
      })
    },
    write(change) {
      return new Promise<void>((resolve, reject) => {
        queue.push({
          change,
          ...(change.type === 'replace' ? { state: change.state() } : {}),
          resolve,
          reject,
        })
        schedule()
      })
    },
    async settled() {
      while (draining) await draining
    },
    async close() {
      while (draining) await draining
      closed = true
      if (fd !== undefined) await fs.close(fd).catch(ignore)
      fd = undefined
      lock?.release()
      lock = undefined
    },
  }
}

const ignore = () => {}
