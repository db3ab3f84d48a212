import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, expect, test, vi } from 'vitest'
import { createSandbox } from 'petstore-sandbox'
import { openFileStore } from '../../../src/node/file-store/create-file-store.js'
import { parseStateFile } from '../../../src/node/file-store/format.js'
import { throughHandlers } from '../through-handlers.js'

// The lock file of a --persist file cannot be created on a full disk: the server still
// starts and serves what the file holds, read-only and saying so; creates answer 507
// until there is room, then the lock is taken and they are written (issue 21). The
// lock's file calls (src/node/file-store/lock.ts) are node:fs's: the disk is full for the
// files it creates beside the state file while `diskFull` is set.

const disk = vi.hoisted(() => ({ full: false }))
vi.mock('node:fs', async (original) => {
  const fs = await original<typeof import('node:fs')>()
  const openSync: typeof fs.openSync = (path, ...rest) => {
    if (disk.full && /\.lock/.test(String(path)))
      throw Object.assign(
        new Error(`ENOSPC: no space left on device, open '${String(path)}'`),
        {
          code: 'ENOSPC',
        },
      )
    return fs.openSync(path, ...rest)
  }
  return { ...fs, default: { ...fs, openSync }, openSync }
})

let folder: string
let file: string
beforeEach(() => {
  folder = mkdtempSync(join(tmpdir(), 'petstore-read-only-'))
  file = join(folder, 'state.json')
  disk.full = false
})
afterEach(() => rmSync(folder, { recursive: true, force: true }))

const { ask, post } = throughHandlers('sandbox-enterprise-key')
const stored = () => parseStateFile(readFileSync(file, 'utf8'), file).state.pets

test('no room for the lock: served read-only, said so; 507 until there is room, then 201', async () => {
  // A first run writes the file.
  const first = openFileStore(file, { onFailure: () => {}, notice: () => {} })
  createSandbox({ count: 2, seed: 1, store: first })
  await first.restored
  await first.close()
  const content = readFileSync(file, 'utf8')

  disk.full = true
  const notices: string[] = []
  const failures: string[] = []
  const store = openFileStore(file, {
    onFailure: (error) => failures.push(error.message),
    notice: (line) => notices.push(line),
  })
  const sandbox = createSandbox({ count: 2, seed: 1, store })
  expect(await store.restored).toBe(true)
  expect(store.readOnly).toMatch(
    /its lock .*state\.json\.lock could not be created \(ENOSPC/,
  )
  expect(notices).toEqual([
    expect.stringMatching(
      /state\.json: read-only, its lock .* could not be created \(ENOSPC.*\)\. The pets it holds are served; creates answer 507 storage_failed until there is room/,
    ),
  ])
  expect(sandbox.exportState().pets).toEqual(stored())

  const refused = await post(sandbox, 'Full')
  expect(refused.status).toBe(507)
  const body = (await refused.json()) as { code: string; message: string }
  expect(body.code).toBe('storage_failed')
  expect(body.message).toMatch(/read-only/)
  expect(failures).toEqual([expect.stringMatching(/read-only.*ENOSPC/)])
  expect(readFileSync(file, 'utf8')).toBe(content)
  expect(existsSync(`${file}.lock`)).toBe(false)

  disk.full = false
  expect((await post(sandbox, 'Room')).status).toBe(201)
  expect(store.readOnly).toBeUndefined()
  expect(existsSync(`${file}.lock`)).toBe(true)
  expect(stored()).toEqual(sandbox.exportState().pets)
  expect(stored().at(-1)?.name).toBe('Room')
  await store.close()
  expect(existsSync(`${file}.lock`)).toBe(false)
})

test('read-only, and another server wrote the file meanwhile: still 507, never written over', async () => {
  const first = openFileStore(file, { onFailure: () => {}, notice: () => {} })
  createSandbox({ count: 2, seed: 1, store: first })
  await first.restored
  await first.close()

  disk.full = true
  const store = openFileStore(file, { onFailure: () => {}, notice: () => {} })
  const sandbox = createSandbox({ count: 2, seed: 1, store })
  await store.restored
  disk.full = false
  // Another server (the lock was free) appended a pet.
  const other = `${readFileSync(file, 'utf8')}{"id":99,"name":"Other","categoryId":1}\n`
  writeFileSync(file, other)

  const refused = await post(sandbox, 'Mine')
  expect(refused.status).toBe(507)
  expect(((await refused.json()) as { message: string }).message).toMatch(
    /changed since this server read it/,
  )
  expect(readFileSync(file, 'utf8')).toBe(other)
  expect(existsSync(`${file}.lock`)).toBe(false)
  await store.close()
})

test('no room for the lock and no file yet: the start fails, naming the file', async () => {
  disk.full = true
  const store = openFileStore(file, { onFailure: () => {}, notice: () => {} })
  createSandbox({ count: 2, seed: 1, store })
  await expect(store.restored).rejects.toThrow(
    /Failed to write the state file .*state\.json: the state file is read-only: its lock .* could not be created \(ENOSPC/,
  )
  expect(existsSync(file)).toBe(false)
})

test('read-only, a reset is refused (507) and written before the first create once there is room', async () => {
  const first = openFileStore(file, { onFailure: () => {}, notice: () => {} })
  const firstSandbox = createSandbox({ count: 2, seed: 1, store: first })
  await first.restored
  expect((await post(firstSandbox, 'Gone after the reset')).status).toBe(201)
  await first.close()

  disk.full = true
  const store = openFileStore(file, { onFailure: () => {}, notice: () => {} })
  const sandbox = createSandbox({ count: 2, seed: 1, store })
  await store.restored
  const reset = await ask(sandbox, '/__sandbox/reset', { method: 'POST' })
  expect(reset.status).toBe(507)
  expect(stored().map((pet) => pet.name)).toContain('Gone after the reset')

  disk.full = false
  expect((await post(sandbox, 'After')).status).toBe(201)
  expect(stored()).toEqual(sandbox.exportState().pets)
  expect(stored().map((pet) => pet.name)).not.toContain('Gone after the reset')
  await store.close()
})
