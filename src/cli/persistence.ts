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
import { CliError } from './cli-error.js'

/** The `--persist` file of a running sandbox. */
export interface Persistence {
  readonly file: string
  /** Whether the pets came from the file (false: it was new). */
  readonly restored: boolean
  /** Writes the sandbox's pets now. */
  save(): void
  /** Stops following the sandbox; the last state stays on disk. */
  close(): void
}

/**
 * Restores the sandbox's pets from `path` (when it exists) and keeps the file in step:
 * it is written after every 201 of createPet, before that response leaves the process
 * (the journal calls its listeners before the handler returns the response), and after
 * a reset. A corrupt or foreign file is refused and left as it is.
 */
export async function openPersistence(
  sandbox: Sandbox,
  path: string,
): Promise<Persistence> {
  const file = resolve(path)
  let text: string | undefined
  try {
    text = readFileSync(file, 'utf8')
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') {
      throw new CliError(
        `Failed to read the state file ${file}: ${(error as Error).message}. Check its permissions, or point --persist at another file.`,
      )
    }
  }
  if (text !== undefined) {
    let state: unknown
    try {
      state = JSON.parse(text)
    } catch (error) {
      throw new CliError(
        `Failed to restore the state from ${file}: it is ${text.trim() === '' ? 'empty' : `not valid JSON (${(error as Error).message})`}, so it was left untouched. Point --persist at a new file, or delete this one to start from the seeded data.`,
      )
    }
    try {
      await sandbox.importState(state, file)
    } catch (error) {
      if (error instanceof SandboxError) throw new CliError(error.message)
      throw error
    }
  }

  removeLeftovers(file)
  const save = () =>
    writeFileAtomically(file, `${JSON.stringify(sandbox.exportState(), null, 2)}\n`)
  try {
    // A new file is written at once, so an unwritable folder fails at start, not later.
    if (text === undefined) save()
  } catch (error) {
    throw new CliError(
      `Failed to write the state file ${file}: ${(error as Error).message}. Check that its folder exists and is writable.`,
    )
  }

  const stop = sandbox.onRequest((entry) => {
    if (entry.operation !== 'createPet' || entry.status !== 201) return
    try {
      save()
    } catch (error) {
      // The 201 goes out anyway; say loudly that it will not survive a restart.
      process.stderr.write(
        `petstore-sandbox: Failed to save the state to ${file}: ${(error as Error).message}. The created pet is served but not persisted.\n`,
      )
    }
  })
  // The control API's reset rewinds the data; the file follows, or a restart would
  // bring back pets the user just reset away.
  const reset = sandbox.reset
  sandbox.reset = async () => {
    await reset()
    save()
  }

  return {
    file,
    restored: text !== undefined,
    save,
    close() {
      stop()
      sandbox.reset = reset
    },
  }
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
    rmSync(temporary, { force: true })
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
