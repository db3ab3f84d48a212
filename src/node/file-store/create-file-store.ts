import { resolve } from 'node:path'
import { SandboxError } from '../../core/common/errors.js'
import type { Sandbox } from '../../core/sandbox.js'
import type { StoreChange } from '../../core/data/store.js'
import type { SandboxStore } from '../../core/world/sandbox-types.js'
import type { StoreFs } from './fs.js'
import { openStateFile } from './open.js'
import { restoreFromFile } from './restore.js'
import { createStoreWriter } from './writer.js'
import type { PathOption } from './wording.js'

/**
 * A sandbox store over one JSON-lines file: the CLI's `--persist` store, for tests and
 * custom servers. Append-only (a create appends its pet's line, fsynced before the 201),
 * rewritten whole on reset, reload and restore; locked to one owner, in this process and
 * across processes.
 * @see docs/persistence.md#a-file-store-in-code
 */
export interface FileStore extends SandboxStore {
  /** The absolute path of the state file. */
  readonly file: string
  /**
   * Why the store writes nothing (its lock could not be created: a full disk), or
   * undefined. Each write tries the lock again; until then it fails (a create is 507).
   */
  readonly readOnly: string | undefined
  /**
   * Resolves, once the sandbox it was given to has restored the file (or written a new
   * one), to whether the pets came from the file. Rejects with a SandboxError
   * (STORAGE_FAILED) when a new file could not be written; the store is closed then.
   */
  readonly restored: Promise<boolean>
  /** Resolves once every write asked for so far is done (or failed). */
  settled(): Promise<void>
  /** Waits for the writes under way, then closes the file and releases its lock. */
  close(): Promise<void>
}

/** Options of {@link createFileStore}. */
export interface FileStoreOptions {
  /**
   * Hears each line worth telling: a failed write (its create answered 507), a torn last
   * line dropped, a migration, a file served read-only. Default: stderr, prefixed
   * `petstore-sandbox: `.
   */
  log?: (line: string) => void
}

/** The options of the CLI and of the tests beside the public ones. */
export interface OpenFileStoreOptions {
  /** Hears lines that are no failure (default: `log`). */
  notice?: (line: string) => void
  /** Hears every failed write once (default: a line to `log`). */
  onFailure?: (error: Error, change: StoreChange) => void
  /** The file-system calls of the writes (node:fs); tests inject failures here. */
  fs?: StoreFs
  /** How messages name the way to choose the file (default `createFileStore()`). */
  option?: PathOption
  log?: (line: string) => void
}

/**
 * Creates the store of the state file at `path` (created at the first write if
 * missing): locks it and reads it now, synchronously, and gives what it holds to the
 * sandbox it is passed to, which starts from it. Throws a SandboxError naming the file
 * when another store holds it (`FILE_LOCKED`: another process, named by its pid, or
 * this process), when it is corrupt or foreign (`INVALID_PERSISTED_STATE`, left
 * untouched), or when it is not a regular file.
 *
 * @example
 * import { createSandbox, createFileStore } from 'petstore-sandbox/node'
 * const sandbox = createSandbox({ store: createFileStore('state.jsonl') })
 * // ... requests; every 201 is in the file ...
 * await sandbox.close() // releases the file's lock
 * @see docs/persistence.md#a-file-store-in-code
 */
export function createFileStore(path: string, options: FileStoreOptions = {}): FileStore {
  return openFileStore(path, options.log === undefined ? {} : { log: options.log })
}

/** {@link createFileStore} with the options the CLI and the tests use. */
export function openFileStore(
  path: string,
  options: OpenFileStoreOptions = {},
): FileStore {
  const file = resolve(path)
  const option = options.option ?? 'createFileStore()'
  const log =
    options.log ?? ((line: string) => process.stderr.write(`petstore-sandbox: ${line}\n`))
  const notice = options.notice ?? log
  const onFailure =
    options.onFailure ??
    ((error: Error, change: StoreChange) =>
      log(
        `Failed to save the state to ${file} (${change.type === 'create' ? 'a create, answered 507 storage_failed' : `a ${change.reason}`}): ${error.message}`,
      ))
  const open = () => {
    const opened = openStateFile(file, option, notice)
    const writer = createStoreWriter(file, opened, {
      fs: options.fs,
      notice,
      onFailure,
      option,
    })
    return { opened, writer }
  }
  let { opened, writer } = open()
  let attached = false
  let closed = false
  // Let go by a createSandbox that failed before it attached the store: attach opens
  // the file again (it may have changed meanwhile).
  let released = false
  let settle!: (restore: Promise<boolean>) => void
  const restored = new Promise<boolean>((resolve) => {
    settle = resolve
  })
  // Who does not await it still hears the failure (onFailure, the 507s that follow).
  restored.catch(() => {})

  return {
    file,
    get readOnly() {
      return writer.readOnly
    },
    restored,
    attach(sandbox: Sandbox) {
      if (attached || closed) {
        throw SandboxError.for(
          'INVALID_OPTION',
          `create the sandbox with the file store of ${file}`,
          closed ? 'the store is closed' : 'the store serves another sandbox already',
          'Give each sandbox its own createFileStore(), on its own file.',
        )
      }
      if (released) {
        ;({ opened, writer } = open())
        released = false
      }
      attached = true
      const restore = restoreFromFile(sandbox, file, opened.loaded, writer)
      // The start failed: the file's lock goes with it.
      settle(
        restore.catch(async (error: unknown) => {
          await writer.close()
          throw error
        }),
      )
    },
    release() {
      if (attached || closed || released) return
      released = true
      // No sandbox has written through it: the lock goes now, synchronously, so a
      // second createFileStore of the file in the same turn finds it free.
      opened.lock?.release()
      void writer.close()
    },
    write: (change) => writer.write(change),
    settled: () => writer.settled(),
    close() {
      closed = true
      return writer.close()
    },
  }
}
