import { randomBytes } from 'node:crypto'
import { constants } from 'node:fs'
import { basename, dirname, join } from 'node:path'
import { O_DIRECTORY, O_NOFOLLOW, type StoreFs } from './fs.js'

// The state file written whole (writer.ts's rewrites: a reset, a reload, a recovery, the
// new file at start), so that a crash at any point leaves the old file or the new one,
// never a mix; and the one way a write reaches the disk whole.

/**
 * Writes `data` as `file` anew: a temporary file beside it with a random name (O_EXCL,
 * O_NOFOLLOW, mode 0600), written whole, fsynced, renamed over the state file. Resolves
 * to the temporary file's descriptor, the state file's now; the rename is durable once
 * {@link fsyncFolder} has run. On failure the temporary file is removed.
 */
export async function writeAnew(
  fs: StoreFs,
  file: string,
  data: Buffer,
): Promise<number> {
  const temporary = join(
    dirname(file),
    `.${basename(file)}.${randomBytes(8).toString('hex')}.tmp`,
  )
  const temporaryFd = await fs.open(
    temporary,
    constants.O_RDWR | constants.O_CREAT | constants.O_EXCL | O_NOFOLLOW,
    0o600,
  )
  try {
    await writeFully(fs, temporaryFd, data, 0)
    await fs.fsync(temporaryFd)
    await fs.rename(temporary, file)
  } catch (error) {
    await fs.close(temporaryFd).catch(ignore)
    await fs.unlink(temporary).catch(ignore)
    throw error
  }
  return temporaryFd
}

/** Error codes of a folder fsync that the file system does not support: nothing to do. */
const FOLDER_FSYNC_UNSUPPORTED = new Set(['EINVAL', 'ENOTSUP', 'EISDIR', 'EPERM'])

/** Makes a rename in `folder` durable. A file system that cannot fsync a folder is skipped. */
export async function fsyncFolder(fs: StoreFs, folder: string) {
  let folderFd: number
  try {
    folderFd = await fs.open(folder, constants.O_RDONLY | O_DIRECTORY)
  } catch (error) {
    if (FOLDER_FSYNC_UNSUPPORTED.has((error as NodeJS.ErrnoException).code ?? '')) return
    throw error
  }
  try {
    await fs.fsync(folderFd)
  } catch (error) {
    if (!FOLDER_FSYNC_UNSUPPORTED.has((error as NodeJS.ErrnoException).code ?? ''))
      throw error
  } finally {
    await fs.close(folderFd).catch(ignore)
  }
}

/** Writes all of `data` at `position`, or throws: a short write is never success. */
export async function writeFully(
  fs: StoreFs,
  fd: number,
  data: Buffer,
  position: number,
) {
  let written = 0
  while (written < data.byteLength) {
    let count: number
    try {
      count = await fs.write(fd, data.subarray(written), position + written)
    } catch (error) {
      if (written === 0) throw error
      throw new Error(
        `${(error as Error).message} after a short write (${written} of ${data.byteLength} bytes)`,
        { cause: error },
      )
    }
    if (!(count > 0)) {
      throw new Error(
        `short write: ${written} of ${data.byteLength} bytes reached the file`,
      )
    }
    written += count
  }
}

const ignore = () => {}
