import { spawn } from 'node:child_process'
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, test } from 'vitest'
import { bundleScript } from './bundle-script.js'
import {
  createFileStore,
  createSandbox,
  SandboxError,
  type Pet,
} from 'petstore-sandbox/node'
import { parseStateFile } from '../../../src/node/file-store/format.js'
import { throughHandlers } from '../through-handlers.js'

// createFileStore, the --persist store as Node users get it (CONTRACT, "File store for
// Node users"): restored at createSandbox, durable at 201, one owner, released by close.

let folder: string
let file: string
const opened: Array<{ close(): Promise<void> }> = []
beforeEach(() => {
  folder = mkdtempSync(join(tmpdir(), 'petstore-file-store-'))
  file = join(folder, 'state.jsonl')
})
afterEach(async () => {
  for (const one of opened.splice(0)) await one.close()
  rmSync(folder, { recursive: true, force: true })
})

const { ask, post } = throughHandlers('sandbox-enterprise-key')
const quiet = { log: () => {} }
const open = () => {
  const store = createFileStore(file, quiet)
  opened.push(store)
  return store
}
const inFile = () => parseStateFile(readFileSync(file, 'utf8'), file).state.pets
const names = async (response: Response) =>
  ((await response.json()) as Pet[]).map((pet) => pet.name)

test('a new file is written at creation; the sandbox starts from the seed', async () => {
  const store = open()
  const sandbox = createSandbox({ count: 2, seed: 7, store })
  expect(await store.restored).toBe(false)
  expect(inFile()).toEqual(sandbox.exportState().pets)
  expect(inFile()).toHaveLength(2)
})

test('a create is in the file once it is answered 201', async () => {
  const sandbox = createSandbox({ count: 2, seed: 7, store: open() })
  const response = await post(sandbox, 'Durable')
  expect(response.status).toBe(201)
  // Read at once, nothing awaited but the answer: the line is fsynced before the 201.
  expect(inFile().map((pet) => pet.name)).toContain('Durable')
})

test('createSandbox restores what the file holds at creation: the first request sees it', async () => {
  const first = createSandbox({ count: 2, seed: 7, store: open() })
  expect((await post(first, 'Kept')).status).toBe(201)
  await first.close()

  const sandbox = createSandbox({ count: 2, seed: 7, store: open() })
  // No await before the request: requests wait for the restore.
  expect(await names(await ask(sandbox, '/v1/pets'))).toContain('Kept')
  expect(sandbox.db.pets.findMany().map((pet) => pet.name)).toContain('Kept')
})

test('a corrupt file is refused with a SandboxError naming it, left untouched and unlocked', () => {
  writeFileSync(
    file,
    '{"format":"petstore-sandbox/state@2","seed":1,"count":1}\n{"id":1,\n',
  )
  const content = readFileSync(file, 'utf8')
  expect(() => createFileStore(file, quiet)).toThrow(
    expect.objectContaining({
      name: 'SandboxError',
      code: 'INVALID_PERSISTED_STATE',
      message: expect.stringMatching(
        /^Failed to restore the state from .*state\.jsonl: line 2 is not valid JSON .*Pass createFileStore\(\) a new file, or delete this one/,
      ),
    }),
  )
  expect(readFileSync(file, 'utf8')).toBe(content)
  expect(existsSync(`${file}.lock`)).toBe(false)
})

describe('one owner per file', () => {
  test('a second store on the file in this process is refused, naming the file and this process', async () => {
    createSandbox({ store: open() })
    let refused: unknown
    try {
      createFileStore(file, quiet)
    } catch (error) {
      refused = error
    }
    expect(refused).toBeInstanceOf(SandboxError)
    expect((refused as SandboxError).code).toBe('FILE_LOCKED')
    expect((refused as Error).message).toContain(file)
    expect((refused as Error).message).toMatch(
      /^Failed to use the state file .*: this process uses it already .*Close that one first/,
    )
  })

  test('close() releases the lock: a second store on the file then works and holds the pets', async () => {
    const first = createSandbox({ count: 1, seed: 7, store: open() })
    expect((await post(first, 'Handed over')).status).toBe(201)
    await first.close()
    // Later creates of the closed one are refused, never lost silently.
    expect((await post(first, 'Too late')).status).toBe(507)

    const store = open()
    const second = createSandbox({ count: 1, seed: 7, store })
    expect(await store.restored).toBe(true)
    expect(await names(await ask(second, '/v1/pets'))).toEqual([
      expect.any(String),
      'Handed over',
    ])
  })

  test("the store's own close() releases the lock as sandbox.close() does", async () => {
    const store = createFileStore(file, quiet)
    createSandbox({ store })
    await store.close()
    expect(() => open()).not.toThrow()
  })

  test('one store serves one sandbox', () => {
    const store = open()
    createSandbox({ store })
    expect(() => createSandbox({ store })).toThrow(
      /Failed to create the sandbox with the file store of .*state\.jsonl: the store serves another sandbox already/,
    )
  })

  test('a store held by another process is refused, naming its pid; once it is gone, taken over', async () => {
    const script = join(folder, 'hold.mjs')
    await bundleScript(
      [
        `import { createFileStore } from './src/node/file-store/index.ts'`,
        `createFileStore(process.argv[2], { log: () => {} })`,
        `process.stdout.write('held\\n')`,
        `setInterval(() => {}, 1000)`,
      ],
      script,
    )
    const child = spawn(process.execPath, [script, file], {
      stdio: ['ignore', 'pipe', 'inherit'],
    })
    const exited = new Promise((resolve) => child.once('exit', resolve))
    try {
      await new Promise<void>((resolve, reject) => {
        let out = ''
        child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
          out += chunk
          if (out.includes('held\n')) resolve()
        })
        child.once('exit', (code) => reject(new Error(`the holder exited (${code})`)))
      })
      expect(() => createFileStore(file, quiet)).toThrow(
        new RegExp(
          `^Failed to use the state file .*state\\.jsonl: another server uses it \\(process ${child.pid},`,
        ),
      )
    } finally {
      child.kill('SIGKILL')
      await exited
    }
    // A SIGKILL leaves its lock; its owner is gone, so the next store takes it over.
    const store = open()
    createSandbox({ store })
    expect(await store.restored).toBe(false)
  })
})
