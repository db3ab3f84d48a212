import { lstatSync, readdirSync, readlinkSync, rmSync, statSync } from 'node:fs'
import { basename, dirname, join, resolve } from 'node:path'
import { CliError } from './cli-error.js'

// The path of the `--persist` file, before and after its store reads it: what it may
// be, the leftovers beside it, and whether it is still the file that was read.

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
export function checkPath(file: string) {
  let stats
  try {
    stats = lstatSync(file)
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return
    throw new CliError(
      `Failed to read the state file ${file}: ${(error as Error).message}. Check its folder's permissions, or point --persist at another file.`,
    )
  }
  if (stats.isSymbolicLink()) {
    let target = 'elsewhere'
    try {
      target = resolve(dirname(file), readlinkSync(file))
    } catch {
      // The message says "elsewhere".
    }
    throw new CliError(
      `Failed to use the state file ${file}: it is a symbolic link (to ${target}), and the sandbox does not write through links. Point --persist at the file itself${target === 'elsewhere' ? '' : ` (--persist ${target})`}.`,
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
    throw new CliError(
      `Failed to use the state file ${file}: it is ${kind}, not a regular file. Point --persist at a file (it is created if missing).`,
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
