import { spawn } from 'node:child_process'
import {
  existsSync,
  linkSync,
  mkdtempSync,
  readFileSync,
  renameSync,
  rmSync,
  writeFileSync,
} from 'node:fs'
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
        /^Failed to restore the state from .*state\.jsonl: line 2 is not valid JSON .*Mend line 2 \(or remove it: the pet it holds is lost\), then start again; or pass createFileStore\(\) a new file\.$/,
      ),
    }),
  )
  expect(readFileSync(file, 'utf8')).toBe(content)
  expect(existsSync(`${file}.lock`)).toBe(false)
})

describe('a file edited by hand', () => {
  const HEADER = '{"format":"petstore-sandbox/state@2","seed":1,"count":1}\n'
  const ONE = '{"id":1,"name":"One","categoryId":1}\n'

  test('a line that is not UTF-8 (Latin-1 from an editor) is refused, naming it, and left as it was', () => {
    const bytes = Buffer.concat([
      Buffer.from(`${HEADER}${ONE}{"id":2,"name":"Ren`),
      Buffer.from([0xe9]),
      Buffer.from('e","categoryId":1}\n{"id":3,"name":"Three","categoryId":1}\n'),
    ])
    writeFileSync(file, bytes)
    expect(() => createFileStore(file, quiet)).toThrow(
      /line 3 is not UTF-8 text \(a byte of another encoding, such as Latin-1 saved by an editor\), so it was left untouched\. Mend line 3/,
    )
    expect(readFileSync(file).equals(bytes)).toBe(true)
    expect(existsSync(`${file}.lock`)).toBe(false)
  })

  test('a whole last line without its newline is kept, and the next create goes on a line of its own', async () => {
    writeFileSync(file, `${HEADER}${ONE}{"id":9,"name":"Hand","categoryId":2}`)
    const lines: string[] = []
    const store = createFileStore(file, { log: (line) => lines.push(line) })
    opened.push(store)
    const sandbox = createSandbox({ count: 1, seed: 1, store })
    expect(await store.restored).toBe(true)
    expect(await names(await ask(sandbox, '/v1/pets'))).toEqual(['One', 'Hand'])
    expect(lines.join('\n')).toMatch(
      /line 3\) holds a whole pet but no newline at its end: kept/,
    )
    expect((await post(sandbox, 'Next')).status).toBe(201)
    expect(inFile().map((pet) => pet.name)).toEqual(['One', 'Hand', 'Next'])
    expect(
      readFileSync(file, 'utf8').endsWith(
        '"categoryId":2}\n{"id":10,"name":"Next","categoryId":1}\n',
      ),
    ).toBe(true)
  })

  test('blank lines (as an editor may leave at the end) are skipped; ids are named by their line', async () => {
    writeFileSync(file, `${HEADER}\n${ONE}\n`)
    const store = open()
    const sandbox = createSandbox({ count: 1, seed: 1, store })
    expect(await names(await ask(sandbox, '/v1/pets'))).toEqual(['One'])
    expect((await post(sandbox, 'After')).status).toBe(201)
    await store.close()
    opened.splice(opened.indexOf(store), 1)
    expect(inFile().map((pet) => pet.name)).toEqual(['One', 'After'])
    writeFileSync(file, `${HEADER}\n${ONE}\n${ONE}`)
    expect(() => createFileStore(file, quiet)).toThrow(/line 5's id/)
  })

  test('a file of a newer format says to upgrade, not that it is not JSON', () => {
    writeFileSync(file, '{"format":"petstore-sandbox/state@3","seed":1,"count":1}\n')
    expect(() => createFileStore(file, quiet)).toThrow(
      /its header \(line 1\) names the format "petstore-sandbox\/state@3", which this version of petstore-sandbox does not read .*a newer version wrote it\. Upgrade petstore-sandbox to serve it/,
    )
  })

  test('a file with a second name (a hard link) is refused: its lock is taken by name', () => {
    writeFileSync(file, `${HEADER}${ONE}`)
    linkSync(file, join(folder, 'other.jsonl'))
    expect(() => createFileStore(file, quiet)).toThrow(
      /it has 2 names \(hard links\), and its lock is taken by name/,
    )
    expect(existsSync(`${file}.lock`)).toBe(false)
  })
})

describe('a file another program changes while the server runs', () => {
  test('removed (a folder cleaned): the next create writes it anew, every acknowledged pet in it', async () => {
    const lines: string[] = []
    const store = createFileStore(file, { log: (line) => lines.push(line) })
    opened.push(store)
    const sandbox = createSandbox({ count: 2, seed: 7, store })
    expect((await post(sandbox, 'Before')).status).toBe(201)
    rmSync(file)
    expect((await post(sandbox, 'After')).status).toBe(201)
    expect(
      inFile()
        .map((pet) => pet.name)
        .slice(2),
    ).toEqual(['Before', 'After'])
    expect(lines.join('\n')).toMatch(/removed while this server ran; written anew/)
    expect((await post(sandbox, 'Then')).status).toBe(201)
    expect(
      inFile()
        .map((pet) => pet.name)
        .slice(2),
    ).toEqual(['Before', 'After', 'Then'])
  })

  test('written by another program: a 507, and its bytes are kept', async () => {
    const sandbox = createSandbox({ count: 2, seed: 7, store: open() })
    expect((await post(sandbox, 'Ours')).status).toBe(201)
    const theirs = '{"id":900,"name":"Theirs","categoryId":2}\n'
    writeFileSync(file, theirs, { flag: 'a' })
    const refused = await post(sandbox, 'Refused')
    expect(refused.status).toBe(507)
    expect(((await refused.json()) as { message: string }).message).toMatch(
      /another program wrote it while this server ran/,
    )
    expect(readFileSync(file, 'utf8').endsWith(theirs)).toBe(true)
    expect(inFile().map((pet) => pet.name)).toContain('Theirs')
    expect(inFile().map((pet) => pet.name)).not.toContain('Refused')
  })

  test('replaced by another file: a 507, and that file is left alone', async () => {
    const sandbox = createSandbox({ count: 2, seed: 7, store: open() })
    expect((await post(sandbox, 'Ours')).status).toBe(201)
    const other = join(folder, 'other.jsonl')
    const content = '{"format":"petstore-sandbox/state@2","seed":1,"count":1}\n'
    writeFileSync(other, content)
    renameSync(other, file)
    const refused = await post(sandbox, 'Refused')
    expect(refused.status).toBe(507)
    expect(((await refused.json()) as { message: string }).message).toMatch(
      /another file was put at its path/,
    )
    expect(readFileSync(file, 'utf8')).toBe(content)
  })
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

  test('a createSandbox refused for a bad option lets go of its new store: the corrected call gets the file', async () => {
    expect(() =>
      createSandbox({ count: -1, store: createFileStore(file, quiet) }),
    ).toThrow(/option count too small/)
    // At once, nothing awaited: the lock went with the refusal.
    expect(existsSync(`${file}.lock`)).toBe(false)
    const store = open()
    const sandbox = createSandbox({ count: 1, seed: 7, store })
    expect(await store.restored).toBe(false)
    expect((await post(sandbox, 'Second try')).status).toBe(201)
  })

  test('a createSandbox refused for a bad option leaves the store usable: the caller gives it to the corrected call', async () => {
    const store = open()
    expect(() => createSandbox({ count: -1, store })).toThrow(/option count too small/)
    expect(existsSync(`${file}.lock`)).toBe(false)
    // Written by another meanwhile: the store reads the file again when it is taken.
    const other = open()
    const first = createSandbox({ count: 1, seed: 7, store: other })
    expect((await post(first, 'Meanwhile')).status).toBe(201)
    await first.close()
    const sandbox = createSandbox({ count: 1, seed: 7, store })
    expect(await store.restored).toBe(true)
    expect(existsSync(`${file}.lock`)).toBe(true)
    expect((await post(sandbox, 'Second try')).status).toBe(201)
    expect(inFile().map((pet) => pet.name)).toEqual(
      expect.arrayContaining(['Meanwhile', 'Second try']),
    )
    await sandbox.close()
    expect(existsSync(`${file}.lock`)).toBe(false)
  })

  test('every entry that refuses its options before making a sandbox lets go of the store too', async () => {
    const { setupSandboxServer } = await import('petstore-sandbox/node')
    const { createSandboxApp, createSandboxMiddleware } =
      await import('petstore-sandbox/express')
    const refusals: Array<[() => unknown, RegExp]> = [
      [
        () =>
          setupSandboxServer({
            store: createFileStore(file, quiet),
            senario: 'x',
          } as never),
        /"senario" is not an option of the sandbox/,
      ],
      [
        () =>
          setupSandboxServer({
            store: createFileStore(file, quiet),
            scenario: './none.json',
          }),
        /none\.json/,
      ],
      [
        () =>
          createSandboxApp({ store: createFileStore(file, quiet) }, { seed: 1 } as never),
        /"seed" is not an option of the adapter \(it is one of the sandbox\)\. Put seed in the first argument/,
      ],
      [
        () =>
          createSandboxApp({
            store: createFileStore(file, quiet),
            allowedOrigins: 'x' as never,
          }),
        /allowedOrigins must be an array of strings/,
      ],
      [
        () =>
          createSandboxMiddleware({ store: createFileStore(file, quiet), bodyLimit: -1 }),
        /bodyLimit -1 is not a number of bytes/,
      ],
    ]
    for (const [refused, message] of refusals) {
      expect(refused).toThrow(message)
      expect(existsSync(`${file}.lock`)).toBe(false)
    }
    const sandbox = createSandbox({ count: 1, seed: 7, store: open() })
    expect((await post(sandbox, 'Corrected')).status).toBe(201)
  })

  test("a refused createSandbox never closes a store of the caller's own making", () => {
    const calls: string[] = []
    const store = {
      write: () => void calls.push('write'),
      close: async () => void calls.push('close'),
    }
    expect(() => createSandbox({ count: -1, store })).toThrow(/option count too small/)
    expect(calls).toEqual([])
  })

  test('a refused createSandbox leaves alone a store that serves another sandbox', async () => {
    const store = open()
    const first = createSandbox({ count: 1, seed: 7, store })
    expect(() => createSandbox({ count: -1, store })).toThrow(/option count too small/)
    expect(() => createSandbox({ store })).toThrow(/serves another sandbox already/)
    expect((await post(first, 'Still served')).status).toBe(201)
    expect(inFile().map((pet) => pet.name)).toContain('Still served')
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
