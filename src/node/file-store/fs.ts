import {
  close,
  constants,
  fstat,
  fsync,
  ftruncate,
  open,
  read,
  rename,
  stat,
  unlink,
  write,
} from 'node:fs'

/**
 * The file-system calls the `--persist` store makes once it runs, asynchronous so a
 * create never blocks the event loop on the disk. node:fs by default; tests give one
 * that fails at a chosen call (open, write, a short write, fsync, rename, the folder's
 * fsync, truncate) to check that every failure is a 507 and the file stays right.
 */
export interface StoreFs {
  /** Opens `path` (a folder too, for its fsync) and resolves to a file descriptor. */
  open(path: string, flags: number, mode?: number): Promise<number>
  /** Writes bytes at `position`; resolves to how many were written (maybe fewer). */
  write(fd: number, data: Uint8Array, position: number): Promise<number>
  /** Reads into `into` from `position`; resolves to how many bytes were read. */
  read(fd: number, into: Uint8Array, position: number): Promise<number>
  /** Flushes the file (or folder) to the disk. */
  fsync(fd: number): Promise<void>
  ftruncate(fd: number, length: number): Promise<void>
  close(fd: number): Promise<void>
  rename(from: string, to: string): Promise<void>
  unlink(path: string): Promise<void>
  /** What the open file is: which file (`dev`, `ino`), its names left, its size. */
  fstat(fd: number): Promise<FileIdentity>
  /** The same of the file at `path` now. */
  stat(path: string): Promise<FileIdentity>
}

/** Which file a descriptor or a path is, and how big. */
export interface FileIdentity {
  dev: number
  ino: number
  nlink: number
  size: number
}

const done =
  <T>(resolve: (value: T) => void, reject: (error: Error) => void) =>
  (error: Error | null, value?: T) =>
    error ? reject(error) : resolve(value as T)

/** node:fs behind {@link StoreFs}. */
export const nodeStoreFs: StoreFs = {
  open: (path, flags, mode) =>
    new Promise((resolve, reject) => open(path, flags, mode, done(resolve, reject))),
  write: (fd, data, position) =>
    new Promise((resolve, reject) =>
      write(fd, data, 0, data.byteLength, position, done(resolve, reject)),
    ),
  read: (fd, into, position) =>
    new Promise((resolve, reject) =>
      read(fd, into, 0, into.byteLength, position, done(resolve, reject)),
    ),
  fsync: (fd) => new Promise((resolve, reject) => fsync(fd, done(resolve, reject))),
  ftruncate: (fd, length) =>
    new Promise((resolve, reject) => ftruncate(fd, length, done(resolve, reject))),
  close: (fd) => new Promise((resolve, reject) => close(fd, done(resolve, reject))),
  rename: (from, to) =>
    new Promise((resolve, reject) => rename(from, to, done(resolve, reject))),
  unlink: (path) => new Promise((resolve, reject) => unlink(path, done(resolve, reject))),
  fstat: (fd) => new Promise((resolve, reject) => fstat(fd, done(resolve, reject))),
  stat: (path) => new Promise((resolve, reject) => stat(path, done(resolve, reject))),
}

/** `O_NOFOLLOW` where the platform has it (not on Windows), else nothing. */
export const O_NOFOLLOW = constants.O_NOFOLLOW ?? 0
/** `O_NONBLOCK` where the platform has it: opening a FIFO then never waits for a writer. */
export const O_NONBLOCK = constants.O_NONBLOCK ?? 0
/** `O_DIRECTORY` where the platform has it. */
export const O_DIRECTORY = constants.O_DIRECTORY ?? 0
