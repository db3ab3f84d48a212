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
  return new StateFileWriter(file, opened, options)
}

/** The writer of one state file: its queue of changes, then the file's bytes. */
class StateFileWriter implements StoreWriter {
  readonly #file: string
  readonly #folder: string
  readonly #fs: StoreFs
  readonly #notice: (line: string) => void
  readonly #onFailure: (error: Error, change: StoreChange) => void
  readonly #option: PathOption

  // The state file, opened by the last rewrite (its temporary file, renamed), and how
  // many of its bytes hold acknowledged data: appends go there.
  #fd: number | undefined
  #length = 0
  // What must be written before the next append, after a failure left the file behind:
  // the state of a replace that failed, or the acknowledged bytes of a file that could
  // not be cut back after a failed append.
  #recovery: { state: PersistedState } | 'prefix' | undefined
  #closed = false
  // The lock, or why there is none (read-only); what read() saw; a restore of a file
  // served read-only, to take up once the lock is.
  #lock: FileLock | undefined
  #readOnly: string | undefined
  #readFile: ReadFile | undefined
  readonly #seen: OpenedFile['seen']
  #deferred: { read: ReadFile; state: PersistedState } | undefined

  readonly #queue: Job[] = []
  #draining: Promise<void> | undefined

  constructor(file: string, opened: OpenedFile, options: StoreWriterOptions) {
    this.#file = file
    this.#folder = dirname(file)
    this.#fs = options.fs ?? nodeStoreFs
    this.#notice = options.notice
    this.#onFailure = options.onFailure
    this.#option = options.option
    this.#lock = opened.lock
    this.#readOnly = opened.readOnly
    this.#readFile = opened.read
    this.#seen = opened.seen
  }

  get readOnly(): string | undefined {
    return this.#readOnly
  }

  save(state: PersistedState): Promise<void> {
    return new Promise<void>((resolve, reject) => {
      this.#queue.push({
        change: { type: 'replace', reason: 'restore', state: () => state },
        state,
        resolve,
        reject,
      })
      this.#schedule()
    })
  }

  write(change: StoreChange): Promise<void> {
    return new Promise<void>((resolve, reject) => {
      this.#queue.push({
        change,
        ...(change.type === 'replace' ? { state: change.state() } : {}),
        resolve,
        reject,
      })
      this.#schedule()
    })
  }

  async settled(): Promise<void> {
    while (this.#draining) await this.#draining
  }

  async close(): Promise<void> {
    while (this.#draining) await this.#draining
    this.#closed = true
    if (this.#fd !== undefined) await this.#fs.close(this.#fd).catch(ignore)
    this.#fd = undefined
    this.#lock?.release()
    this.#lock = undefined
  }

  #schedule(): void {
    // setImmediate, not a microtask: every create the server parsed in this turn of the
    // event loop joins the first group.
    this.#draining ??= new Promise<void>((done) =>
      setImmediate(() => void this.#drain().finally(done)),
    ).finally(() => {
      this.#draining = undefined
      if (this.#queue.length > 0) this.#schedule()
    })
  }

  async #drain(): Promise<void> {
    const queue = this.#queue
    while (queue.length > 0) {
      const first = queue[0] as Job
      if (first.change.type === 'replace') {
        queue.shift()
        await this.#runReplace(first)
        continue
      }
      let end = 1
      while (end < queue.length && queue[end]?.change.type === 'create') end++
      await this.#runCreates(queue.splice(0, end))
    }
  }

  async #runReplace(job: Job): Promise<void> {
    const state = job.state as PersistedState
    const read = this.#readFile
    this.#readFile = undefined
    try {
      if (this.#closed) throw closedError()
      if (
        read &&
        job.change.type === 'replace' &&
        job.change.reason === 'restore' &&
        state.pets.length === read.pets
      ) {
        // The restore of the file just read: serve it as it is, written or not.
        if (this.#readOnly) this.#deferred = { read, state }
        else await this.#adopt(read, state)
        job.resolve()
        return
      }
      await this.#writable()
      await this.#rewrite(encodeState(state))
      this.#recovery = undefined
      this.#deferred = undefined
      job.resolve()
    } catch (error) {
      // The next append first writes this state: appending to the old file would mix
      // two states (and ids).
      this.#recovery = { state }
      this.#onFailure(error as Error, job.change)
      job.reject(error as Error)
    }
  }

  async #runCreates(jobs: Job[]): Promise<void> {
    try {
      if (this.#closed) throw closedError()
      await this.#writable()
      if (this.#recovery) await this.#recover()
      if (this.#fd === undefined)
        throw new Error('the state file is not open (no state written yet)')
      await this.#checkFile(this.#fd)
      let text = ''
      for (const job of jobs) text += encodePet((job.change as StoreCreateChange).pet)
      await this.#append(Buffer.from(text))
      for (const job of jobs) job.resolve()
    } catch (error) {
      const many =
        jobs.length > 1
          ? ` (${jobs.length} creates written together, all answered 507)`
          : ''
      this.#onFailure(
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
  async #checkFile(open: number): Promise<void> {
    const file = this.#file
    const opened = await this.#fs.fstat(open)
    let atPath
    try {
      atPath = await this.#fs.stat(file)
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error
    }
    if (atPath !== undefined && (atPath.ino !== opened.ino || atPath.dev !== opened.dev))
      throw new Error(
        'another file was put at its path since this server opened it; restart the server to serve that one (or move it away to keep this server writing its own)',
      )
    if (atPath === undefined) {
      this.#notice(
        `${file}: removed while this server ran; written anew from what it holds.`,
      )
      this.#recovery = 'prefix'
      await this.#recover()
      return
    }
    if (opened.size !== this.#length)
      throw new Error(
        `another program wrote it while this server ran (${opened.size} bytes where this server wrote ${this.#length}); restart the server to serve what it holds`,
      )
  }

  /** Appends at the end of the acknowledged bytes; on failure, cuts the file back. */
  async #append(data: Buffer): Promise<void> {
    const fs = this.#fs
    const fd = this.#fd as number
    const start = this.#length
    try {
      await writeFully(fs, fd, data, start)
      await fs.fsync(fd)
      this.#length = start + data.byteLength
    } catch (error) {
      try {
        await fs.ftruncate(fd, start)
        await fs.fsync(fd)
      } catch (cut) {
        // The file may end with bytes no one acknowledged: the next write rewrites the
        // acknowledged ones into a new file first.
        this.#recovery ??= 'prefix'
        throw new Error(
          `${(error as Error).message}; cutting the file back to its acknowledged ${start} bytes failed too (${(cut as Error).message}), so the next write rewrites it first`,
          { cause: error },
        )
      }
      throw error
    }
  }

  async #recover(): Promise<void> {
    const recovery = this.#recovery
    if (recovery === 'prefix') {
      const length = this.#length
      const data = Buffer.allocUnsafe(length)
      let done = 0
      while (done < length) {
        const read = await this.#fs.read(this.#fd as number, data.subarray(done), done)
        if (read <= 0)
          throw new Error(
            `the state file is shorter than its acknowledged ${length} bytes`,
          )
        done += read
      }
      await this.#rewrite(data)
    } else if (recovery) {
      await this.#rewrite(encodeState(recovery.state))
    }
    this.#recovery = undefined
  }

  /**
   * Takes the file read at start as it is: a state@2 file is opened to append to (a torn
   * last line cut off, a whole one given its newline), a state@1 file rewritten as
   * state@2. Nothing here is needed to
   * serve it: a failure (a full disk) leaves the file as it was, and the next create
   * rewrites it first (answered 507 until that works).
   */
  async #adopt(read: ReadFile, state: PersistedState): Promise<void> {
    const file = this.#file
    const fs = this.#fs
    let fd: number
    try {
      if (read.version === 1) {
        await this.#rewrite(encodeState(state))
        this.#notice(
          `${file}: a petstore-sandbox/state@1 file, rewritten as state@2 (JSON lines).`,
        )
        return
      }
      fd = this.#fd = await fs.open(file, constants.O_RDWR | O_NOFOLLOW)
      this.#length = read.bytes
    } catch (error) {
      this.#recovery = { state }
      this.#notice(
        `${file}: served as it is; ${read.version === 1 ? 'rewriting it as state@2' : 'opening it to append'} failed (${(error as Error).message}). The next create rewrites it first, and is answered 507 storage_failed until that works (free disk space).`,
      )
      return
    }
    if (read.unterminated) {
      try {
        await writeFully(fs, fd, Buffer.from('\n'), this.#length)
        await fs.fsync(fd)
        this.#length += 1
      } catch {
        // The next write rewrites the file first, every line with its newline.
        this.#recovery = { state }
      }
    }
    if (!read.torn) return
    try {
      await fs.ftruncate(fd, read.bytes)
      await fs.fsync(fd)
    } catch {
      // The torn bytes stay after the acknowledged ones: the next write rewrites these.
      this.#recovery = 'prefix'
    }
  }

  /**
   * Throws unless the store may write: read-only (no lock at start), it tries the lock
   * again, and then takes up the file, if nobody wrote it meanwhile.
   */
  async #writable(): Promise<void> {
    if (!this.#readOnly) return
    const file = this.#file
    const taken = lockStateFile(file, this.#option)
    if ('readOnly' in taken)
      throw new Error(`the state file is read-only: ${taken.readOnly}`)
    if (!sameFile(file, this.#seen)) {
      taken.lock.release()
      throw new Error(
        'the state file is read-only: it changed since this server read it (another server wrote it); restart this server to serve what it holds',
      )
    }
    this.#lock = taken.lock
    this.#readOnly = undefined
    this.#notice(`${file}: locked now (${taken.lock.path}); writes go to the file again.`)
    // A replace that failed meanwhile (a reset) is rewritten before the next append:
    // the file as read is no longer the state to take up.
    const deferred = this.#deferred
    if (deferred && !this.#recovery) await this.#adopt(deferred.read, deferred.state)
    this.#deferred = undefined
  }

  /** The whole file anew (write-anew.ts): appends then go to the new file. */
  async #rewrite(content: string | Buffer): Promise<void> {
    const data = typeof content === 'string' ? Buffer.from(content) : content
    const renamed = await writeAnew(this.#fs, this.#file, data)
    const previous = this.#fd
    this.#fd = renamed
    this.#length = data.byteLength
    if (previous !== undefined) await this.#fs.close(previous).catch(ignore)
    await fsyncFolder(this.#fs, this.#folder)
  }
}

const closedError = () => new Error('the state file is closed (its store was closed)')

const ignore = () => {}
