import { spawn, spawnSync } from 'node:child_process'
import {
  existsSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs'
import { hostname, tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, test } from 'vitest'
import { bundleScript } from './bundle-script.js'
import {
  acquireFileLock,
  FileLockedError,
  lockPathOf,
  type LockOwner,
} from '../../../src/node/file-store/lock.js'

// The lock of a file store (createFileStore, the CLI's --persist): one owner per file,
// a dead owner's lock taken over, never two owners at once.

let folder: string
let file: string
beforeEach(() => {
  folder = mkdtempSync(join(tmpdir(), 'petstore-lock-'))
  file = join(folder, 'state.json')
})
afterEach(() => rmSync(folder, { recursive: true, force: true }))

/** A pid no process has: one of a child that has exited. */
function deadPid() {
  const child = spawnSync(process.execPath, [
    '-e',
    'process.stdout.write(String(process.pid))',
  ])
  return Number(child.stdout.toString())
}

const lockOf = (owner: Partial<LockOwner>) =>
  writeFileSync(
    lockPathOf(file),
    `${JSON.stringify({ hostname: hostname(), since: '2026-01-01T00:00:00.000Z', token: 'old', ...owner })}\n`,
  )
const readOwner = () => JSON.parse(readFileSync(lockPathOf(file), 'utf8')) as LockOwner

/** The error acquireFileLock throws, or fails. */
function refusal(): FileLockedError {
  try {
    acquireFileLock(file).release()
  } catch (error) {
    expect(error).toBeInstanceOf(FileLockedError)
    return error as FileLockedError
  }
  throw new Error('The lock was taken.')
}

describe('in one process', () => {
  test('taken: the lock file names this process; released: it is gone, nothing left beside', () => {
    const lock = acquireFileLock(file)
    expect(lock.path).toBe(`${file}.lock`)
    expect(readOwner()).toEqual({
      pid: process.pid,
      hostname: hostname(),
      since: expect.any(String),
      token: expect.stringMatching(/^[0-9a-f]{16}$/),
    })
    lock.release()
    lock.release()
    expect(readdirSync(folder)).toEqual([])
  })

  test('the lock file is readable by its owner only (0600, as the state file), taken or taken over', () => {
    // Windows has no such modes: there it only takes and releases.
    const mode = () =>
      process.platform === 'win32' ? 0o600 : statSync(lockPathOf(file)).mode & 0o777
    const lock = acquireFileLock(file)
    expect(mode()).toBe(0o600)
    lock.release()
    lockOf({ pid: deadPid() })
    const taken = acquireFileLock(file)
    expect(mode()).toBe(0o600)
    taken.release()
  })

  test('a second lock on the same file in this process is refused', () => {
    const lock = acquireFileLock(file)
    try {
      const error = refusal()
      expect(error.reason).toBe('this-process')
      expect(error.owner?.pid).toBe(process.pid)
    } finally {
      lock.release()
    }
    acquireFileLock(file).release()
  })

  test('a live owner keeps it: refused, naming its pid', () => {
    // The parent of this test process: alive, and not this process.
    lockOf({ pid: process.ppid })
    const error = refusal()
    expect(error.reason).toBe('running')
    expect(error.owner?.pid).toBe(process.ppid)
    expect(error.message).toContain(file)
    expect(readOwner().pid).toBe(process.ppid)
  })

  test('a dead owner (a SIGKILLed server) is taken over', () => {
    const pid = deadPid()
    lockOf({ pid })
    const lock = acquireFileLock(file)
    expect(readOwner()).toMatchObject({ pid: process.pid, token: lock.owner.token })
    lock.release()
    expect(existsSync(lockPathOf(file))).toBe(false)
  })

  test('this pid in a lock this process does not hold (a restarted container) is taken over', () => {
    lockOf({ pid: process.pid })
    const lock = acquireFileLock(file)
    expect(readOwner().token).toBe(lock.owner.token)
    lock.release()
  })

  test('an owner on another host, or a lock naming no owner, counts as held', () => {
    lockOf({ pid: deadPid(), hostname: `not-${hostname()}` })
    expect(refusal().reason).toBe('other-host')
    writeFileSync(lockPathOf(file), 'garbage')
    expect(refusal().reason).toBe('unreadable')
    expect(readFileSync(lockPathOf(file), 'utf8')).toBe('garbage')
  })

  test('release leaves a lock that replaced this one alone', () => {
    const lock = acquireFileLock(file)
    lockOf({ pid: process.ppid, token: 'another' })
    lock.release()
    expect(readOwner().token).toBe('another')
  })
})

describe('across processes', () => {
  test('processes racing for one stale lock: exactly one wins', async () => {
    const script = join(folder, 'race.mjs')
    await bundleScript(
      [
        `import { acquireFileLock } from './src/node/file-store/lock.ts'`,
        `const [file, start] = process.argv.slice(2)`,
        // A barrier: every process tries at the same moment.
        `while (Date.now() < Number(start)) {}`,
        `let result`,
        `try { acquireFileLock(file); result = 'won' } catch (error) { result = error.reason ?? error.code }`,
        `process.stdout.write(result + '\\n')`,
        // Holds the lock until killed: a later one must not win after a release.
        `setInterval(() => {}, 1000)`,
      ],
      script,
    )
    for (let round = 0; round < 3; round++) {
      lockOf({ pid: deadPid(), token: `stale-${round}` })
      const start = Date.now() + 700
      const children = Array.from({ length: 6 }, () =>
        spawn(process.execPath, [script, file, String(start)], {
          stdio: ['ignore', 'pipe', 'inherit'],
        }),
      )
      try {
        const results = await Promise.all(
          children.map(
            (child) =>
              new Promise<string>((resolve) => {
                let out = ''
                child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
                  out += chunk
                  if (out.endsWith('\n')) resolve(out.trim())
                })
                child.once('exit', () => resolve(out.trim() || 'exited'))
              }),
          ),
        )
        expect(
          results.filter((result) => result === 'won'),
          results.join(),
        ).toHaveLength(1)
        expect(results.filter((result) => result !== 'won')).toEqual(
          Array(5).fill('running'),
        )
        const winner = children[results.indexOf('won')]
        expect(readOwner().pid).toBe(winner?.pid)
      } finally {
        for (const child of children) child.kill('SIGKILL')
        await Promise.all(
          children.map(
            (child) =>
              new Promise((resolve) =>
                child.exitCode !== null || child.signalCode !== null
                  ? resolve(undefined)
                  : child.once('exit', resolve),
              ),
          ),
        )
      }
      // No claim or temporary file is left beside the lock.
      expect(readdirSync(folder).sort()).toEqual(['race.mjs', 'state.json.lock'])
    }
  }, 30_000)
})
