import { execFileSync } from 'node:child_process'
import {
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, test } from 'vitest'
import {
  createPet,
  killAll,
  listPets,
  runCli,
  startServer,
  useTempFolder,
} from './cli-process.js'
import { readStateFile } from './read-state.js'

// The --persist file over real processes: a real short write (ulimit -f, then EFBIG), a
// full tmpfs (ENOSPC, when this machine lets the test mount one), paths that are not
// regular files, the state@1 format, ids, a torn last line.

let folder: string
let file: string
useTempFolder('petstore-durable-', (made) => {
  folder = made
  file = join(made, 'state.json')
})

/**
 * Creates big pets until one is refused; checks the 507, the one log line, and that the
 * file holds exactly the acknowledged pets, after a restart too.
 */
async function fillUntilRefused(
  server: Awaited<ReturnType<typeof startServer>>,
  cause: RegExp,
) {
  const acknowledged: string[] = []
  let refused: Response | undefined
  for (let index = 0; index < 200 && !refused; index++) {
    const name = `${index}-${'x'.repeat(900)}`
    const response = await createPet(server.api, name)
    if (response.status === 201) acknowledged.push(name)
    else refused = response
  }
  expect(refused?.status).toBe(507)
  expect(acknowledged.length).toBeGreaterThan(0)
  const body = (await refused?.json()) as { code: string; message: string }
  expect(body.code).toBe('storage_failed')
  expect(body.message).toMatch(/could not write its state durably/)
  const lines = server.cli.stderr().trimEnd().split('\n')
  expect(lines).toHaveLength(1)
  expect(lines[0]).toMatch(
    /Failed to save the state to .*state\.json .*507 storage_failed/,
  )
  expect(lines[0]).toMatch(cause)
  // The refused pet is neither served nor in the file, which still loads.
  expect((await listPets(server.api)).map((pet) => pet.name)).not.toContain(
    expect.stringMatching(new RegExp(`^${acknowledged.length}-`)),
  )
  const names = readStateFile(file).pets.map((pet) => pet.name)
  expect(names.slice(50)).toEqual(acknowledged)
  expect(readStateFile(file).torn).toBeUndefined()
  return acknowledged
}

describe('a full disk is a 507, never a 201, and the file keeps every acknowledged pet', () => {
  test('a real short write (ulimit -f, then EFBIG)', async () => {
    // 16 KiB: the 50 seeded pets (4 KiB) and about twelve 0.9 KB pets fit.
    const server = await startServer(['--persist', file], { fileSizeLimitKb: 16 })
    const acknowledged = await fillUntilRefused(server, /EFBIG|short write/)
    // Refused again while the disk is full, and the file does not change.
    const before = readFileSync(file, 'utf8')
    expect((await createPet(server.api, `again-${'y'.repeat(900)}`)).status).toBe(507)
    expect(readFileSync(file, 'utf8')).toBe(before)
    server.cli.child.kill('SIGKILL')
    await server.cli.exited

    // With room again: exactly the acknowledged pets, and ids go on.
    const next = await startServer(['--persist', file])
    const pets = await listPets(next.api)
    expect(pets.slice(50).map((pet) => pet.name)).toEqual(acknowledged)
    const rex = (await (await createPet(next.api, 'Rex')).json()) as { id: number }
    expect(rex.id).toBeGreaterThan(50 + acknowledged.length)
  })

  const mounted = (() => {
    if (process.platform !== 'linux') return undefined
    const point = mkdtempSync(join(tmpdir(), 'petstore-tmpfs-'))
    try {
      execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=32k', 'tmpfs', point], {
        stdio: 'ignore',
      })
      execFileSync('umount', [point], { stdio: 'ignore' })
      return point
    } catch {
      rmSync(point, { recursive: true, force: true })
      return undefined
    }
  })()
  // Mounting needs root (or CAP_SYS_ADMIN); the ulimit test above needs nothing.
  test.skipIf(mounted === undefined)('a full tmpfs (ENOSPC)', async () => {
    const point = mounted as string
    execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=32k', 'tmpfs', point])
    try {
      file = join(point, 'state.json')
      const server = await startServer(['--persist', file])
      await fillUntilRefused(server, /ENOSPC|short write/)
      server.cli.child.kill('SIGKILL')
      await server.cli.exited
      expect(readdirSync(point).sort()).toEqual(['state.json', 'state.json.lock'])
    } finally {
      await killAll()
      execFileSync('umount', [point])
      rmSync(point, { recursive: true, force: true })
    }
  })
})

describe('a state path that is not a regular file is refused at start, in one line', () => {
  const refuses = async (path: string, message: RegExp) => {
    const cli = await runCli(['--port', '0', '--persist', path])
    const exit = await Promise.race([
      cli.exited,
      new Promise<'hang'>((resolve) => setTimeout(() => resolve('hang'), 5000)),
    ])
    expect(exit, 'the start must not hang').not.toBe('hang')
    expect((exit as { code: number }).code).toBe(1)
    const lines = cli.stderr().trimEnd().split('\n')
    expect(lines).toHaveLength(1)
    expect(lines[0]).toContain(path)
    expect(lines[0]).toMatch(message)
  }

  test.skipIf(process.platform === 'win32')(
    'a FIFO (which used to hang the start)',
    async () => {
      execFileSync('mkfifo', [file])
      await refuses(file, /is a FIFO \(named pipe\), not a regular file/)
    },
  )

  test('a folder', async () => {
    mkdirSync(file)
    await refuses(file, /is a folder, not a regular file/)
  })

  test.skipIf(process.platform === 'win32')('a device', async () => {
    await refuses('/dev/null', /is a device, not a regular file/)
  })

  test.skipIf(process.platform === 'win32')(
    'a symbolic link, to a state file too: refused, naming the real file; neither is touched',
    async () => {
      const real = join(folder, 'real.json')
      const first = await startServer(['--persist', real])
      first.cli.child.kill('SIGTERM')
      await first.cli.exited
      const content = readFileSync(real, 'utf8')
      symlinkSync(real, file)
      await refuses(
        file,
        /is a symbolic link \(to .*real\.json\).*--persist .*real\.json/,
      )
      expect(readFileSync(real, 'utf8')).toBe(content)
      expect(readdirSync(folder).sort()).toEqual(['real.json', 'state.json'])
    },
  )
})

describe('what a state file may hold', () => {
  const pet = (id: number, name = `Pet ${id}`) => ({ id, name, categoryId: 1 })
  const header = JSON.stringify({
    format: 'petstore-sandbox/state@2',
    seed: 42,
    count: 2,
  })
  const log = (...lines: unknown[]) =>
    `${[header, ...lines.map((line) => JSON.stringify(line))].join('\n')}\n`

  test('a state@1 file (whole JSON) loads and is rewritten as state@2 at start', async () => {
    const v1 = {
      format: 'petstore-sandbox/state@1',
      seed: 42,
      count: 2,
      pets: [pet(1), pet(2), pet(10, 'Old')],
    }
    writeFileSync(file, JSON.stringify(v1, null, 2))
    const { cli, api } = await startServer(['--persist', file])
    expect((await listPets(api)).map((one) => one.name)).toEqual([
      'Pet 1',
      'Pet 2',
      'Old',
    ])
    expect(((await (await createPet(api, 'New')).json()) as { id: number }).id).toBe(11)
    const state = readStateFile(file)
    expect(state.version).toBe(2)
    expect(state.header).toEqual({
      format: 'petstore-sandbox/state@2',
      seed: 42,
      count: 50, // the running sandbox's, as state@1 files were written
    })
    expect(state.pets.map((one) => one.id)).toEqual([1, 2, 10, 11])
    expect(cli.stderr()).toMatch(/state@1 file, rewritten as state@2/)
    if (process.platform !== 'win32') expect(statSync(file).mode & 0o777).toBe(0o600)
  })

  test.each([
    [
      'an id at 2^53 - 1',
      log(pet(1), pet(Number.MAX_SAFE_INTEGER)),
      /line 3's id 9007199254740991 is past 9007199254640991/,
    ],
    [
      'an id just past the room for maxPets creates',
      log(pet(Number.MAX_SAFE_INTEGER - 99_999)),
      /line 2's id 9007199254640992 is past 9007199254640991/,
    ],
    [
      'a repeated id',
      log(pet(1), pet(7), pet(7, 'Twin')),
      /line 4's id 7 appears twice \(also line 3's id\)/,
    ],
    [
      'a repeated id in a state@1 file',
      JSON.stringify({
        format: 'petstore-sandbox/state@1',
        seed: 1,
        count: 1,
        pets: [pet(3), pet(3)],
      }),
      /pets\[1\]\.id 3 appears twice \(also pets\[0\]\.id\)/,
    ],
    [
      'a corrupt line in the middle',
      `${header}\n${JSON.stringify(pet(1))}\n{"id":2,"na\n${JSON.stringify(pet(3))}\n`,
      /line 3 is not valid JSON/,
    ],
    ['a line that is not a pet', log(pet(1), { id: 2 }), /line 3 is not a pet/],
  ])(
    '%s: refused, naming the file and the line, left untouched',
    async (_kind, content, message) => {
      writeFileSync(file, content)
      const cli = await runCli(['--port', '0', '--persist', file])
      expect((await cli.exited).code).toBe(1)
      const lines = cli.stderr().trimEnd().split('\n')
      expect(lines).toHaveLength(1)
      expect(lines[0]).toContain(file)
      expect(lines[0]).toMatch(message)
      expect(readFileSync(file, 'utf8')).toBe(content)
    },
  )

  test('a torn last line (a write a kill cut short, never answered) is dropped and reported', async () => {
    writeFileSync(file, `${log(pet(1), pet(2), pet(3, 'Kept'))}{"id":4,"name":"Tor`)
    const { cli, api } = await startServer(['--persist', file])
    expect((await listPets(api)).map((one) => one.name)).toEqual([
      'Pet 1',
      'Pet 2',
      'Kept',
    ])
    expect(cli.stderr()).toMatch(
      /state\.json: its last line \(line 5, 19 bytes\) was cut short/,
    )
    // Rewritten without it at start.
    expect(readStateFile(file).torn).toBeUndefined()
    expect(((await (await createPet(api, 'Next')).json()) as { id: number }).id).toBe(4)
  })
})
