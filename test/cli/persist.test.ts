import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { expect, test } from 'vitest'
import { createPet, listPets, runCli, startServer, useTempFolder } from './cli-process.js'
import { readStateFile } from './read-state.js'

let folder: string
let file: string
useTempFolder('petstore-persist-', (made) => {
  folder = made
  file = join(made, 'state.json')
})

const create = (api: string, name: string) => createPet(api, name, { status: 'pending' })

test('created pets survive a restart (SIGTERM flushes), and ids continue', async () => {
  const first = await startServer(['--persist', file])
  expect(existsSync(file)).toBe(true)
  const rex = (await (await create(first.api, 'Rex')).json()) as { id: number }
  expect(rex.id).toBe(51)
  first.cli.child.kill('SIGTERM')
  expect((await first.cli.exited).code).toBe(0)
  expect(readStateFile(file).header).toEqual({
    format: 'petstore-sandbox/state@2',
    seed: 42,
    count: 50,
  })

  const second = await startServer(['--persist', file])
  const pets = await listPets(second.api)
  expect(pets).toHaveLength(51)
  expect(pets.at(-1)).toEqual({ id: 51, name: 'Rex', categoryId: 2, status: 'pending' })
  expect(((await (await create(second.api, 'Bo')).json()) as { id: number }).id).toBe(52)
})

test('an acknowledged 201 survives SIGKILL: the file is written before the response', async () => {
  const { cli, api } = await startServer(['--persist', file])
  for (const name of ['A', 'B', 'C']) expect((await create(api, name)).status).toBe(201)
  cli.child.kill('SIGKILL')
  await cli.exited
  const state = readStateFile(file)
  expect(state.torn).toBeUndefined()
  expect(state.pets.slice(-3).map((pet) => pet.name)).toEqual(['A', 'B', 'C'])
  // No temporary file is left beside it; the lock stays (a SIGKILL skips the clean exit)
  // and the next server takes it over.
  expect(readdirSync(folder).sort()).toEqual(['state.json', 'state.json.lock'])
})

test('temporary files left by a process killed mid-write are removed at the next start', async () => {
  const first = await startServer(['--persist', file])
  first.cli.child.kill('SIGTERM')
  await first.cli.exited
  writeFileSync(join(folder, '.state.json.12345.tmp'), '{"format":')
  await startServer(['--persist', file])
  // Beside the file, only the running server's lock.
  expect(readdirSync(folder).sort()).toEqual(['state.json', 'state.json.lock'])
})

test('a reset through the control API is persisted too', async () => {
  const { cli, origin, api } = await startServer(['--persist', file])
  await create(api, 'Gone')
  await fetch(`${origin}/__sandbox/reset`, { method: 'POST' })
  cli.child.kill('SIGKILL')
  await cli.exited
  expect(readStateFile(file).pets).toHaveLength(50)
})

test.each([
  ['corrupt', '{"format":"petstore-sandbox/state@1","pets":[{"id":1,', /not valid JSON/],
  ['empty', '', /it is empty/],
  [
    'foreign',
    JSON.stringify({ name: 'some-package', version: '1.0.0' }),
    /not a petstore-sandbox state file/,
  ],
  [
    'invalid pets',
    JSON.stringify({
      format: 'petstore-sandbox/state@1',
      seed: 1,
      count: 1,
      pets: [{ id: -1 }],
    }),
    /pets\[0\] is not a pet/,
  ],
])(
  'a %s file is a clear error naming it; the file is left untouched',
  async (_kind, content, message) => {
    writeFileSync(file, content)
    const cli = await runCli(['--port', '0', '--persist', file])
    expect((await cli.exited).code).toBe(1)
    const lines = cli.stderr().trimEnd().split('\n')
    expect(lines).toHaveLength(1)
    expect(lines[0]).toContain(file)
    expect(lines[0]).toMatch(message)
    expect(lines[0]).toMatch(/--persist|delete/)
    expect(readFileSync(file, 'utf8')).toBe(content)
    expect(readdirSync(folder)).toEqual(['state.json'])
  },
)

test('a state file in a folder that does not exist fails at start', async () => {
  const cli = await runCli([
    '--port',
    '0',
    '--persist',
    join(folder, 'missing', 'state.json'),
  ])
  expect((await cli.exited).code).toBe(1)
  expect(cli.stderr()).toMatch(/Failed to write the state file .*missing.*folder exists/)
})
