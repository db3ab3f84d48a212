import { mkdirSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { expect, test } from 'vitest'
import {
  events,
  eventually,
  FREE,
  runCli,
  startServer,
  useTempFolder,
} from './cli-process.js'
import { readStateFile } from './read-state.js'

let folder: string
useTempFolder('petstore-watch-', (made) => {
  folder = made
})

const writeJson = (file: string, value: unknown) =>
  writeFileSync(file, JSON.stringify(value))
const createPet = (api: string, headers: Record<string, string> = FREE) =>
  fetch(`${api}/pets`, {
    method: 'POST',
    headers: { ...headers, 'content-type': 'application/json' },
    body: JSON.stringify({ name: 'Kept', categoryId: 1 }),
  })

test('--watch reloads the scenario file on change, without a restart or losing created pets', async () => {
  const file = join(folder, 'flaky.json')
  writeJson(file, { name: 'flaky', description: 'first version' })
  const { cli, api, origin } = await startServer(['--scenario', file, '--watch'])
  expect((await createPet(api)).status).toBe(201)

  writeJson(file, {
    name: 'flaky',
    description: 'second version',
    errors: { getPet: { status: 503, code: 'service_unavailable' } },
  })
  await eventually(async () => {
    const state = (await (await fetch(`${origin}/__sandbox`)).json()) as {
      scenario: { description: string }
    }
    return state.scenario.description === 'second version' ? true : undefined
  })
  expect((await fetch(`${api}/pets/1`, { headers: FREE })).status).toBe(503)
  const pets = (await (
    await fetch(`${api}/pets?limit=100`, { headers: FREE })
  ).json()) as Array<{ name: string }>
  expect(pets.at(-1)?.name).toBe('Kept')
  expect(events(cli, 'reload')).toContainEqual(
    expect.objectContaining({ kind: 'scenario', scenario: 'flaky' }),
  )
  // A reset keeps the reloaded definition.
  await fetch(`${origin}/__sandbox/reset`, { method: 'POST' })
  expect((await fetch(`${api}/pets/1`, { headers: FREE })).status).toBe(503)
})

test('--watch reloads fixtures (a folder) and keeps created pets; a broken edit keeps the previous version', async () => {
  const fixtures = join(folder, 'fixtures')
  mkdirSync(fixtures)
  const keys = (extra: string) => ({
    plans: { free: { perMinute: 60, perDay: 1000 } },
    keys: [
      { key: 'team-key', plan: 'free' },
      { key: extra, plan: 'free' },
    ],
  })
  writeJson(join(fixtures, 'api-keys.json'), keys('first-key'))
  const { cli, api } = await startServer(['--fixtures', fixtures, '--watch'])
  const first = { authorization: 'Bearer first-key' }
  expect((await createPet(api, first)).status).toBe(201)

  writeJson(join(fixtures, 'api-keys.json'), keys('second-key'))
  await eventually(async () =>
    (await fetch(`${api}/pets`, { headers: { authorization: 'Bearer second-key' } }))
      .status === 200
      ? true
      : undefined,
  )
  expect((await fetch(`${api}/pets`, { headers: first })).status).toBe(401)
  const pets = (await (
    await fetch(`${api}/pets?limit=100`, {
      headers: { authorization: 'Bearer team-key' },
    })
  ).json()) as Array<{ name: string }>
  expect(pets.at(-1)?.name).toBe('Kept')

  writeFileSync(join(fixtures, 'api-keys.json'), '{"plans": ')
  await eventually(async () =>
    events(cli, 'reload-failed').length > 0 ? true : undefined,
  )
  expect(events(cli, 'reload-failed')[0]?.message).toMatch(
    /api-keys\.json.*not valid JSON/,
  )
  expect(
    (await fetch(`${api}/pets`, { headers: { authorization: 'Bearer second-key' } }))
      .status,
  ).toBe(200)
})

test('--watch without files to watch says so', async () => {
  const cli = await runCli(['--port', '0', '--watch', '--log-format', 'json'])
  await cli.line(/"type":"ready"/)
  expect(cli.stderr()).toMatch(/--watch has nothing to watch/)
})

test('--watch with --persist: a fixtures reload is written to the file, created pets keep their ids', async () => {
  const fixtures = join(folder, 'fixtures')
  mkdirSync(fixtures)
  const pets = (name: string) => [
    { id: 1, name, categoryId: 1 },
    { id: 2, name: 'Second', categoryId: 1 },
  ]
  writeJson(join(fixtures, 'pets.json'), pets('First'))
  const state = join(folder, 'state.json')
  const { cli, api } = await startServer([
    '--fixtures',
    fixtures,
    '--watch',
    '--persist',
    state,
  ])
  const created = (await (await createPet(api)).json()) as { id: number }
  expect(created.id).toBe(3)

  writeJson(join(fixtures, 'pets.json'), pets('Renamed'))
  await eventually(async () => (events(cli, 'reload').length > 0 ? true : undefined))
  expect((await fetch(`${api}/pets/3`, { headers: FREE })).status).toBe(200)
  cli.child.kill('SIGKILL')
  await cli.exited
  const saved = readStateFile(state)
  expect(saved.pets.map(({ id, name }) => [id, name])).toEqual([
    [1, 'Renamed'],
    [2, 'Second'],
    [3, 'Kept'],
  ])
})

test('--watch: fixtures that take the id of a created pet move it, and the log says where', async () => {
  const fixtures = join(folder, 'fixtures')
  mkdirSync(fixtures)
  const pets = [{ id: 1, name: 'First', categoryId: 1 }]
  writeJson(join(fixtures, 'pets.json'), pets)
  const { cli, api } = await startServer(['--fixtures', fixtures, '--watch'])
  const created = (await (await createPet(api)).json()) as { id: number }
  expect(created.id).toBe(2)

  writeJson(join(fixtures, 'pets.json'), [
    ...pets,
    { id: 2, name: 'Taken', categoryId: 1 },
  ])
  await eventually(async () => (events(cli, 'reload').length > 0 ? true : undefined))
  expect(events(cli, 'reload')).toContainEqual(
    expect.objectContaining({ kind: 'fixtures', moved: [{ from: 2, to: 3 }] }),
  )
  const moved = await fetch(`${api}/pets/3`, { headers: FREE })
  expect(await moved.json()).toMatchObject({ id: 3, name: 'Kept' })
})
