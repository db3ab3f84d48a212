import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { createSandbox } from 'petstore-sandbox'
import { expect, test } from 'vitest'
import { listPets, runCli, startServer, useTempFolder } from './cli-process.js'

let folder: string
useTempFolder('petstore-load-', (made) => {
  folder = made
})

/** An export of a sandbox of 3 pets plus Rex, its clock frozen, as a file. */
async function exportFile(name = 'alice.json') {
  const sandbox = createSandbox({ seed: 5, count: 3 })
  await sandbox.ready
  sandbox.db.pets.create({ id: 4, name: 'Rex', categoryId: 2, status: 'pending' })
  sandbox.clock.freeze('2029-05-01T10:00:00Z')
  sandbox.useScenario('missing-pet')
  const data = await sandbox.exportSession()
  const file = join(folder, name)
  writeFileSync(file, JSON.stringify(data))
  return { file, data }
}

test('--load starts with the export as the default session: its pets, scenario and clock', async () => {
  const { file, data } = await exportFile()
  const { api, origin, cli } = await startServer(['--load', file])
  expect(await listPets(api)).toEqual(data.pets)
  const state = (await (await fetch(`${origin}/__sandbox`)).json()) as {
    scenario: { name: string }
    clock: { now: string; frozen: boolean }
  }
  expect(state.scenario.name).toBe('missing-pet')
  expect(state.clock).toEqual({ now: '2029-05-01T10:00:00.000Z', frozen: true })
  cli.child.kill('SIGTERM')
  expect((await cli.exited).code).toBe(0)
})

test('a file that is not an export: exit 1 naming the file and the field', async () => {
  const notExport = join(folder, 'state.json')
  writeFileSync(
    notExport,
    JSON.stringify({ format: 'petstore-sandbox/state@1', pets: [] }),
  )
  const cli = await runCli(['--port', '0', '--load', notExport])
  expect((await cli.exited).code).toBe(1)
  expect(cli.stderr()).toContain(
    `Failed to import the session from ${notExport}: format is "petstore-sandbox/state@1"; it must be "petstore-sandbox/session@1"`,
  )

  const { data } = await exportFile()
  const broken = join(folder, 'broken.json')
  writeFileSync(broken, JSON.stringify({ ...data, pets: [{ id: 1, categoryId: 1 }] }))
  const second = await runCli(['--port', '0', '--load', broken])
  expect((await second.exited).code).toBe(1)
  expect(second.stderr()).toContain(broken)
  expect(second.stderr()).toContain('pets[0].name is required')

  const missing = join(folder, 'missing.json')
  const third = await runCli(['--port', '0', '--load', missing])
  expect((await third.exited).code).toBe(1)
  expect(third.stderr()).toContain(`${missing}: the file does not exist`)

  const text = join(folder, 'notes.json')
  writeFileSync(text, 'pets: Rex')
  const fourth = await runCli(['--port', '0', '--load', text])
  expect((await fourth.exited).code).toBe(1)
  expect(fourth.stderr()).toContain(`${text}: it is not valid JSON`)
})

test('--persist: a file holding pets is not replaced (exit 1 naming both); a new one takes the export', async () => {
  const { file, data } = await exportFile()
  const held = join(folder, 'held.jsonl')
  const first = await startServer(['--persist', held])
  first.cli.child.kill('SIGTERM')
  expect((await first.cli.exited).code).toBe(0)
  const refused = await runCli(['--port', '0', '--persist', held, '--load', file])
  expect((await refused.exited).code).toBe(1)
  expect(refused.stderr()).toContain(`--load ${file} and --persist ${held}`)
  expect(refused.stderr()).toContain('already holds pets')

  const fresh = join(folder, 'fresh.jsonl')
  const loaded = await startServer(['--persist', fresh, '--load', file])
  expect(await listPets(loaded.api)).toEqual(data.pets)
  loaded.cli.child.kill('SIGTERM')
  expect((await loaded.cli.exited).code).toBe(0)
  const again = await startServer(['--persist', fresh])
  expect(await listPets(again.api)).toEqual(data.pets)
})
