import {
  constants,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, test } from 'vitest'
import { createSandbox, type Sandbox } from 'petstore-sandbox'
import { openFileStore } from '../../../src/node/file-store/create-file-store.js'
import { parseStateFile } from '../../../src/node/file-store/format.js'
import { nodeStoreFs, type StoreFs } from '../../../src/node/file-store/fs.js'
import { throughHandlers } from '../through-handlers.js'

// The --persist store in-process, over node:fs with a failure injected at one call:
// every step of a rewrite (open, write, a short write, fsync, rename, the folder's
// fsync) and of an append (write, short write, fsync, truncate), at every position the
// script reaches. After each step the file must load and hold exactly the acknowledged
// pets; a failed create is a 507 and one line in the log.

let folder: string
let file: string
beforeEach(() => {
  folder = mkdtempSync(join(tmpdir(), 'petstore-store-'))
  file = join(folder, 'state.json')
})
afterEach(() => rmSync(folder, { recursive: true, force: true }))

const { ask, post } = throughHandlers('sandbox-enterprise-key')
const reset = (sandbox: Sandbox) => ask(sandbox, '/__sandbox/reset', { method: 'POST' })

type Op =
  | 'open'
  | 'open folder'
  | 'write'
  | 'short write'
  | 'fsync'
  | 'fsync folder'
  | 'rename'
  | 'ftruncate'
  | 'read'

interface Fault {
  op: Op
  /** Fails the nth call of that kind (1-based). */
  nth: number
  code?: 'EIO' | 'ENOSPC'
  /** Also fail every ftruncate from then on. */
  truncateFails?: boolean
}

const errno = (code: string, call: string) =>
  Object.assign(new Error(`${code}: injected, ${call}`), { code })

/** node:fs that fails once where told, counting the calls of each kind. */
function faultyFs(fault: Fault | undefined) {
  const calls: Record<Op, number> = {
    open: 0,
    'open folder': 0,
    write: 0,
    'short write': 0,
    fsync: 0,
    'fsync folder': 0,
    rename: 0,
    ftruncate: 0,
    read: 0,
  }
  const folders = new Set<number>()
  const opens: Array<{ path: string; flags: number; mode?: number }> = []
  let failed = false
  let diskFull = false
  let truncateFails = false
  const hit = (op: Op) => {
    calls[op]++
    if (fault && !failed && fault.op === op && calls[op] === fault.nth) {
      failed = true
      if (fault.truncateFails) truncateFails = true
      return true
    }
    return false
  }
  const fs: StoreFs = {
    ...nodeStoreFs,
    async open(path, flags, mode) {
      const isFolder = (flags & constants.O_DIRECTORY) !== 0
      if (hit(isFolder ? 'open folder' : 'open'))
        throw errno(fault?.code ?? 'EIO', `open '${path}'`)
      const fd = await nodeStoreFs.open(path, flags, mode)
      if (isFolder) folders.add(fd)
      else opens.push({ path, flags, ...(mode === undefined ? {} : { mode }) })
      return fd
    },
    async write(fd, data, position) {
      if (diskFull) throw errno('ENOSPC', 'write')
      if (hit('write')) throw errno(fault?.code ?? 'EIO', 'write')
      if (hit('short write') && data.byteLength > 1) {
        // A disk that fills up: part of the bytes, then ENOSPC.
        diskFull = true
        return nodeStoreFs.write(fd, data.subarray(0, data.byteLength >> 1), position)
      }
      return nodeStoreFs.write(fd, data, position)
    },
    async fsync(fd) {
      if (hit(folders.has(fd) ? 'fsync folder' : 'fsync')) throw errno('EIO', 'fsync')
      return nodeStoreFs.fsync(fd)
    },
    async rename(from, to) {
      if (hit('rename')) throw errno(fault?.code ?? 'EIO', 'rename')
      return nodeStoreFs.rename(from, to)
    },
    async ftruncate(fd, length) {
      if (truncateFails || hit('ftruncate')) throw errno('EIO', 'ftruncate')
      return nodeStoreFs.ftruncate(fd, length)
    },
    async read(fd, into, position) {
      if (hit('read')) throw errno('EIO', 'read')
      return nodeStoreFs.read(fd, into, position)
    },
    async close(fd) {
      folders.delete(fd)
      return nodeStoreFs.close(fd)
    },
  }
  return {
    fs,
    calls,
    opens,
    get failed() {
      return failed
    },
    /** The disk has room again. */
    free() {
      diskFull = false
      truncateFails = false
    },
  }
}

const fileState = () => parseStateFile(readFileSync(file, 'utf8'), file)
const memory = (sandbox: Sandbox) => sandbox.exportState().pets.map((pet) => ({ ...pet }))

/**
 * The script: start (a new file), creates alone and together, a reset, creates again.
 * After each step, the file must load and hold the pets the sandbox acknowledged; after
 * a failed reset it may still hold the state before it.
 */
async function runScript(fault: Fault | undefined) {
  const injected = faultyFs(fault)
  const lines: string[] = []
  const store = openFileStore(file, {
    onFailure: (error, change) => lines.push(`${change.type}: ${error.message}`),
    fs: injected.fs,
    notice: () => {},
  })
  const sandbox = createSandbox({ count: 3, seed: 1, store })
  await sandbox.ready
  let started = true
  try {
    await store.restored
  } catch {
    started = false
  }
  const statuses: number[] = []
  const check = (step: string, previous?: unknown, refused: string[] = []) => {
    const onDisk = fileState().state.pets
    if (previous !== undefined && JSON.stringify(onDisk) === JSON.stringify(previous))
      return
    const expected = memory(sandbox)
    if (refused.length > 0 && fault?.truncateFails) {
      // The double failure: the refused bytes could not be cut off. The file holds
      // every acknowledged pet, and may hold refused ones until the next write.
      const extra = onDisk.filter((pet) => !expected.some((kept) => kept.id === pet.id))
      expect(onDisk.filter((pet) => !extra.includes(pet))).toEqual(expected)
      for (const pet of extra) expect(refused).toContain(pet.name)
      return
    }
    expect(onDisk, `${describeFault(fault)}, after ${step}`).toEqual(expected)
  }
  if (!started) {
    // The start failed: the CLI exits. Nothing was acknowledged; a file may not exist.
    injected.free()
    return { injected, lines, statuses, started }
  }
  check('start')

  const creates = async (step: string, names: string[]) => {
    const responses = await Promise.all(names.map((name) => post(sandbox, name)))
    const refused: string[] = []
    for (const [index, response] of responses.entries()) {
      statuses.push(response.status)
      if (response.status === 507) {
        const body = (await response.json()) as { code: string }
        expect(body.code).toBe('storage_failed')
        refused.push(names[index] as string)
      } else expect(response.status).toBe(201)
    }
    injected.free()
    check(step, undefined, refused)
  }

  await creates('one create', ['A'])
  await creates('three creates together', ['B', 'C', 'D'])
  const before = fileState().state.pets
  const resetAnswer = await reset(sandbox)
  statuses.push(resetAnswer.status)
  injected.free()
  check('a reset', resetAnswer.status === 507 ? before : undefined)
  await creates('a create after the reset', ['E'])
  await creates('two creates together', ['F', 'G'])
  await store.close()
  return { injected, lines, statuses, started }
}

function describeFault(fault: Fault | undefined) {
  if (!fault) return 'no fault'
  return `${fault.code ?? 'EIO'} at ${fault.op} #${fault.nth}${fault.truncateFails ? ' (truncate failing too)' : ''}`
}

describe('a failure injected at every step of every write', () => {
  test('without a fault: every create is 201, each step is on disk, the file is 0600', async () => {
    const { injected, lines, statuses } = await runScript(undefined)
    expect(lines).toEqual([])
    expect(statuses.every((status) => status === 201 || status === 200)).toBe(true)
    expect(
      fileState()
        .state.pets.map((pet) => pet.name)
        .slice(3),
    ).toEqual(['E', 'F', 'G'])
    expect(statuses).toHaveLength(8)
    // Only the rewrites (start, reset) open files: with O_EXCL and O_NOFOLLOW, mode 0600,
    // a random name in the same folder.
    expect(injected.opens).toHaveLength(2)
    for (const open of injected.opens) {
      expect(open.path).toMatch(/[/\\]\.state\.json\.[0-9a-f]{16}\.tmp$/)
      expect(open.flags & constants.O_EXCL).toBe(constants.O_EXCL)
      expect(open.flags & constants.O_CREAT).toBe(constants.O_CREAT)
      if (process.platform !== 'win32')
        expect(open.flags & constants.O_NOFOLLOW).toBe(constants.O_NOFOLLOW)
      expect(open.mode).toBe(0o600)
    }
    expect(injected.opens[0]?.path).not.toBe(injected.opens[1]?.path)
    if (process.platform !== 'win32') expect(statSync(file).mode & 0o777).toBe(0o600)
    expect(readdirSync(folder)).toEqual(['state.json'])
  })

  // How often each kind of call happens in the script without a fault: a failure is
  // injected at each of them in turn.
  const kinds: Array<{ op: Op; code?: 'EIO' | 'ENOSPC' }> = [
    { op: 'open' },
    { op: 'open', code: 'ENOSPC' },
    { op: 'open folder' },
    { op: 'write' },
    { op: 'write', code: 'ENOSPC' },
    { op: 'short write' },
    { op: 'fsync' },
    { op: 'fsync folder' },
    { op: 'rename' },
  ]

  test.each(kinds)('$op ($code) failing at each of its calls', async ({ op, code }) => {
    const clean = await runScript(undefined)
    const total = clean.injected.calls[op]
    expect(total, `the script reaches ${op}`).toBeGreaterThan(0)
    for (let nth = 1; nth <= total; nth++) {
      rmSync(file, { force: true })
      const fault: Fault = { op, nth, ...(code ? { code } : {}) }
      const run = await runScript(fault)
      expect(run.injected.failed, describeFault(fault)).toBe(true)
      if (!run.started) {
        // Only the first rewrite (the new file at start) can stop the start.
        expect(run.lines, describeFault(fault)).toHaveLength(1)
        continue
      }
      // One failed write: one 507 line in the log, however many creates it held.
      expect(run.lines, describeFault(fault)).toHaveLength(1)
      expect(run.statuses, describeFault(fault)).toContain(507)
      expect(
        readdirSync(folder),
        `${describeFault(fault)}: no temporary file left`,
      ).toEqual(['state.json'])
    }
  })

  test('a failed append whose truncation fails too: 507, then the next write rewrites the acknowledged bytes first', async () => {
    const clean = await runScript(undefined)
    let appendsHit = 0
    for (const op of ['write', 'short write', 'fsync'] as const) {
      for (let nth = 1; nth <= clean.injected.calls[op]; nth++) {
        rmSync(file, { force: true })
        const fault: Fault = { op, nth, truncateFails: true }
        const run = await runScript(fault)
        expect(run.injected.failed, describeFault(fault)).toBe(true)
        if (!run.started) continue
        // Every step of the script checked the file against memory; and one line.
        expect(run.lines, describeFault(fault)).toHaveLength(1)
        expect(run.statuses).toContain(507)
        expect(readdirSync(folder)).toEqual(['state.json'])
        if (run.lines[0]?.startsWith('create:')) {
          appendsHit++
          expect(run.lines[0]).toMatch(/cutting the file back .* failed too/)
        }
      }
    }
    expect(appendsHit).toBeGreaterThanOrEqual(9)
  })

  test('the recovery rewrite failing (reading the acknowledged bytes back) is a 507 as well, and the one after succeeds', async () => {
    const injected = faultyFs(undefined)
    const lines: string[] = []
    let failNext: Op | undefined
    const fs: StoreFs = {
      ...injected.fs,
      async write(fd, data, position) {
        if (failNext === 'write') {
          failNext = 'read'
          throw errno('EIO', 'write')
        }
        return nodeStoreFs.write(fd, data, position)
      },
      async ftruncate() {
        throw errno('EIO', 'ftruncate')
      },
      async read(fd, into, position) {
        if (failNext === 'read') {
          failNext = undefined
          throw errno('EIO', 'read')
        }
        return nodeStoreFs.read(fd, into, position)
      },
    }
    const store = openFileStore(file, {
      onFailure: (error) => lines.push(error.message),
      fs,
      notice: () => {},
    })
    const sandbox = createSandbox({ count: 2, seed: 1, store })
    await store.restored
    expect((await post(sandbox, 'Kept')).status).toBe(201)
    failNext = 'write'
    expect((await post(sandbox, 'Refused')).status).toBe(507)
    expect((await post(sandbox, 'Also refused')).status).toBe(507)
    expect((await post(sandbox, 'Saved')).status).toBe(201)
    expect(lines).toHaveLength(2)
    expect(
      fileState()
        .state.pets.map((pet) => pet.name)
        .slice(2),
    ).toEqual(['Kept', 'Saved'])
    expect(fileState().state.pets).toEqual(memory(sandbox))
    await store.close()
  })
})

describe('group commit', () => {
  test('creates sent together share one write and one fsync; each 201 waits for it', async () => {
    const injected = faultyFs(undefined)
    const store = openFileStore(file, {
      onFailure: () => {},
      fs: injected.fs,
      notice: () => {},
    })
    const sandbox = createSandbox({ count: 2, seed: 1, store })
    await store.restored
    const writes = injected.calls.write
    const fsyncs = injected.calls.fsync
    const responses = await Promise.all(
      Array.from({ length: 20 }, (_, index) => post(sandbox, `P${index}`)),
    )
    expect(responses.map((response) => response.status)).toEqual(Array(20).fill(201))
    // Far fewer than one per create (the first may go alone).
    expect(injected.calls.write - writes).toBeLessThanOrEqual(3)
    expect(injected.calls.fsync - fsyncs).toBeLessThanOrEqual(3)
    expect(fileState().state.pets).toHaveLength(22)
    await store.close()
  })

  test('a failed group removes all its pets: none is listed, none is in the file', async () => {
    const injected = faultyFs({ op: 'fsync', nth: 2 })
    const lines: string[] = []
    const store = openFileStore(file, {
      onFailure: (error) => lines.push(error.message),
      fs: injected.fs,
      notice: () => {},
    })
    const sandbox = createSandbox({ count: 2, seed: 1, store })
    await store.restored
    const responses = await Promise.all(
      Array.from({ length: 5 }, (_, index) => post(sandbox, `P${index}`)),
    )
    const refused = responses.filter((response) => response.status === 507).length
    expect(refused).toBeGreaterThan(0)
    expect(lines).toHaveLength(1)
    expect(fileState().state.pets).toEqual(memory(sandbox))
    expect(fileState().state.pets).toHaveLength(2 + 5 - refused)
    await store.close()
  })
})

describe('a restart on a full disk (issue 21)', () => {
  /** A first server's file: the seeded pets and two creates, then a clean stop. */
  async function firstRun() {
    const store = openFileStore(file, { onFailure: () => {}, notice: () => {} })
    const sandbox = createSandbox({ count: 2, seed: 1, store })
    await store.restored
    for (const name of ['A', 'B']) expect((await post(sandbox, name)).status).toBe(201)
    await store.close()
    return readFileSync(file, 'utf8')
  }

  /** node:fs whose writes and creates fail with ENOSPC until `free()`. */
  function fullDisk() {
    let full = true
    const enospc = (call: string) => errno('ENOSPC', call)
    const fs: StoreFs = {
      ...nodeStoreFs,
      async open(path, flags, mode) {
        if (full && (flags & constants.O_CREAT) !== 0) throw enospc(`open '${path}'`)
        return nodeStoreFs.open(path, flags, mode)
      },
      async write(fd, data, position) {
        if (full) throw enospc('write')
        return nodeStoreFs.write(fd, data, position)
      },
    }
    return { fs, free: () => (full = false) }
  }

  test('it starts, serves every pet of the file without rewriting it, answers 507, then 201 once there is room', async () => {
    const content = await firstRun()
    const disk = fullDisk()
    const lines: string[] = []
    const store = openFileStore(file, {
      onFailure: (error) => lines.push(error.message),
      fs: disk.fs,
      notice: (line) => lines.push(line),
    })
    const sandbox = createSandbox({ count: 2, seed: 1, store })
    expect(await store.restored).toBe(true)
    expect(memory(sandbox).map((pet) => pet.name)).toEqual([
      ...fileState()
        .state.pets.slice(0, 2)
        .map((pet) => pet.name),
      'A',
      'B',
    ])
    expect(readFileSync(file, 'utf8')).toBe(content)
    expect(lines).toEqual([])

    const refused = await post(sandbox, 'Full')
    expect(refused.status).toBe(507)
    expect(((await refused.json()) as { code: string }).code).toBe('storage_failed')
    expect(lines).toEqual([expect.stringMatching(/ENOSPC/)])
    expect(readFileSync(file, 'utf8')).toBe(content)

    disk.free()
    expect((await post(sandbox, 'Room')).status).toBe(201)
    expect(
      fileState()
        .state.pets.map((pet) => pet.name)
        .slice(2),
    ).toEqual(['A', 'B', 'Room'])
    expect(fileState().state.pets).toEqual(memory(sandbox))
    await store.close()
  })

  test('a torn last line is cut off at start, not rewritten: the file keeps its acknowledged bytes', async () => {
    const content = await firstRun()
    writeFileSync(file, `${content}{"id":5,"na`)
    const disk = fullDisk()
    const store = openFileStore(file, {
      onFailure: () => {},
      fs: disk.fs,
      notice: () => {},
    })
    const sandbox = createSandbox({ count: 2, seed: 1, store })
    await store.restored
    await store.settled()
    expect(readFileSync(file, 'utf8')).toBe(content)
    disk.free()
    expect((await post(sandbox, 'Next')).status).toBe(201)
    expect(fileState().state.pets).toEqual(memory(sandbox))
    await store.close()
  })

  test('a state@1 file whose rewrite as state@2 fails is served as it is; the next create rewrites it first', async () => {
    const pets = [
      { id: 1, name: 'One', categoryId: 1 },
      { id: 7, name: 'Seven', categoryId: 2 },
    ]
    const v1 = JSON.stringify({
      format: 'petstore-sandbox/state@1',
      seed: 1,
      count: 2,
      pets,
    })
    writeFileSync(file, v1)
    const disk = fullDisk()
    const lines: string[] = []
    const store = openFileStore(file, {
      onFailure: (error) => lines.push(error.message),
      fs: disk.fs,
      notice: (line) => lines.push(line),
    })
    const sandbox = createSandbox({ count: 2, seed: 1, store })
    await store.restored
    expect(memory(sandbox)).toEqual(pets)
    expect(readFileSync(file, 'utf8')).toBe(v1)
    expect(lines).toEqual([
      expect.stringMatching(/served as it is; rewriting it as state@2 failed \(ENOSPC/),
    ])
    expect((await post(sandbox, 'Full')).status).toBe(507)
    expect(readFileSync(file, 'utf8')).toBe(v1)
    disk.free()
    expect((await post(sandbox, 'Room')).status).toBe(201)
    expect(fileState().version).toBe(2)
    expect(fileState().state.pets).toEqual(memory(sandbox))
    await store.close()
  })
})
