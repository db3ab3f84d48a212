import { execFileSync, spawnSync } from 'node:child_process'
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { hostname, tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, test } from 'vitest'
import {
  type CliProcess,
  createPet,
  eventually,
  killAll,
  listPets,
  runCli,
  startServer,
  useTempFolder,
} from './cli-process.js'
import { readStateFile } from './read-state.js'

// One --persist file, one server (issue 21): a second server on the file refuses to
// start instead of writing over the first one's pets; a dead server's lock does not keep
// the next one out; a full disk does not stop a restart (docs/persistence.md#the-state-file).

let file: string
useTempFolder('petstore-lock-', (made) => {
  file = join(made, 'state.json')
})

const names = async (api: string) => (await listPets(api)).map((pet) => pet.name)
const lockOwner = () =>
  JSON.parse(readFileSync(`${file}.lock`, 'utf8')) as { pid: number; hostname: string }

/** How a CLI run ends: its exit, or 'started' if it printed its ready line first. */
async function outcome(cli: CliProcess) {
  return Promise.race([
    cli.exited.then(({ code }) => code),
    cli.line(/"type":"ready"/).then(
      () => 'started' as const,
      () => cli.exited.then(({ code }) => code),
    ),
  ])
}

/** A pid no process has: one of a child that has exited. */
function deadPid() {
  const child = spawnSync(process.execPath, [
    '-e',
    'process.stdout.write(String(process.pid))',
  ])
  return Number(child.stdout.toString())
}

test('a second server on the same file refuses to start (exit 1, naming the file and the pid); every 201 of the first survives a restart', async () => {
  const first = await startServer(['--persist', file])
  for (const name of ['A', 'B'])
    expect((await createPet(first.api, name)).status).toBe(201)

  const second = await runCli([
    '--port',
    '0',
    '--host',
    '127.0.0.1',
    '--log-format',
    'json',
    '--persist',
    file,
  ])
  expect(await outcome(second)).toBe(1)
  const lines = second.stderr().trimEnd().split('\n')
  expect(lines).toHaveLength(1)
  expect(lines[0]).toContain(file)
  expect(lines[0]).toContain(`process ${first.cli.child.pid}`)
  expect(lines[0]).toMatch(/Stop that server, or point --persist at another file/)

  // The first one goes on, on its file.
  expect((await createPet(first.api, 'C')).status).toBe(201)
  first.cli.child.kill('SIGTERM')
  expect((await first.cli.exited).code).toBe(0)
  const next = await startServer(['--persist', file])
  expect((await names(next.api)).slice(50)).toEqual(['A', 'B', 'C'])
})

test("a SIGKILLed server's lock does not keep the next one out", async () => {
  const first = await startServer(['--persist', file])
  expect((await createPet(first.api, 'Kept')).status).toBe(201)
  first.cli.child.kill('SIGKILL')
  await first.cli.exited
  expect(lockOwner().pid).toBe(first.cli.child.pid)

  const next = await startServer(['--persist', file])
  expect(lockOwner().pid).toBe(next.cli.child.pid)
  expect((await names(next.api)).slice(50)).toEqual(['Kept'])
  expect((await createPet(next.api, 'After')).status).toBe(201)
  next.cli.child.kill('SIGTERM')
  await next.cli.exited
  expect(
    readStateFile(file)
      .pets.slice(50)
      .map((pet) => pet.name),
  ).toEqual(['Kept', 'After'])
})

test('a lock whose process is gone is taken over; one whose process runs is not', async () => {
  const pid = deadPid()
  writeFileSync(
    `${file}.lock`,
    JSON.stringify({ pid, hostname: hostname(), since: 'earlier', token: 'abc' }),
  )
  const server = await startServer(['--persist', file])
  expect(lockOwner()).toMatchObject({ pid: server.cli.child.pid, hostname: hostname() })
  server.cli.child.kill('SIGTERM')
  await server.cli.exited

  // This test process runs: its lock keeps the file.
  writeFileSync(
    `${file}.lock`,
    JSON.stringify({
      pid: process.pid,
      hostname: hostname(),
      since: 'now',
      token: 'abc',
    }),
  )
  const refused = await runCli(['--port', '0', '--persist', file])
  expect((await refused.exited).code).toBe(1)
  expect(refused.stderr()).toContain(`process ${process.pid}`)
  expect(refused.stderr()).toMatch(/delete .*state\.json\.lock/)
})

// A full disk for real: a tmpfs of 32 KiB (needs root or CAP_SYS_ADMIN; the in-process
// tests of test/cli/file-store.test.ts and persist-read-only.test.ts inject it anywhere).
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

// CI runs as root and must run it: there a missing mount fails instead of leaving it out.
const mustMount = process.env.CI === 'true'

describe('a full disk at restart', () => {
  test.skipIf(mounted === undefined && !mustMount)(
    'after ENOSPC and a SIGKILL, the restart serves every pet read-only, answers 507, then 201 once there is room',
    async () => {
      if (mounted === undefined) {
        throw new Error('CI must mount a 32 KiB tmpfs for this test (run it as root).')
      }
      const point = mounted
      execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=32k', 'tmpfs', point])
      try {
        file = join(point, 'state.json')
        const first = await startServer(['--persist', file])
        // Fill the disk with a file beside, then with pets until one is refused.
        const filler = join(point, 'filler')
        try {
          writeFileSync(filler, Buffer.alloc(64 * 1024))
        } catch {
          // Full: what fitted stays.
        }
        const big = (name: string) => `${name}-${'x'.repeat(300)}`
        const acknowledged: string[] = []
        let refused = false
        for (let index = 0; index < 50 && !refused; index++) {
          const response = await createPet(first.api, big(`${index}`))
          if (response.status === 201) acknowledged.push(big(`${index}`))
          else refused = response.status === 507
        }
        expect(refused).toBe(true)
        first.cli.child.kill('SIGKILL')
        await first.cli.exited
        // The lock stays (the SIGKILL); remove it so that the restart has to create one
        // on the full disk (and fill the room it leaves).
        rmSync(`${file}.lock`, { force: true })
        try {
          writeFileSync(join(point, 'filler-2'), Buffer.alloc(64 * 1024))
        } catch {
          // Full again.
        }
        const content = readFileSync(file, 'utf8')

        const next = await startServer(['--persist', file])
        // stderr has its own pipe: its line may come after the ready line.
        await eventually(async () =>
          /read-only/.test(next.cli.stderr()) ? true : undefined,
        )
        expect(next.cli.stderr()).toMatch(
          /state\.json: read-only, its lock .*state\.json\.lock could not be created \(ENOSPC.*creates answer 507 storage_failed until there is room/,
        )
        expect((await names(next.api)).slice(50)).toEqual(acknowledged)
        const full = await createPet(next.api, big('Still full'))
        expect(full.status).toBe(507)
        expect(((await full.json()) as { code: string; message: string }).code).toBe(
          'storage_failed',
        )
        expect(readFileSync(file, 'utf8')).toBe(content)

        // Room again: the lock is taken, and creates are appended.
        rmSync(filler, { force: true })
        rmSync(join(point, 'filler-2'), { force: true })
        expect((await createPet(next.api, 'Room again')).status).toBe(201)
        expect(lockOwner().pid).toBe(next.cli.child.pid)
        expect(
          readStateFile(file)
            .pets.slice(50)
            .map((pet) => pet.name),
        ).toEqual([...acknowledged, 'Room again'])
      } finally {
        await killAll()
        execFileSync('umount', [point])
        rmSync(point, { recursive: true, force: true })
      }
    },
  )
})
