import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { setupServer } from 'msw/node'
import { createSandbox } from 'petstore-sandbox'
import { afterAll, beforeAll, expect, test } from 'vitest'
import { failOnUnhandledRequest } from '../msw-options.js'

// The recipe of docs/sessions-carry.md, as written there: a colleague's export, checked
// in beside a test, loaded with createSandbox + importSession.

/** The client under test: what a developer's app calls. */
async function listPendingPets(origin: string, key: string) {
  const response = await fetch(`${origin}/v1/pets?status=pending&limit=100`, {
    headers: { authorization: `Bearer ${key}` },
  })
  return (await response.json()) as Array<{ name: string }>
}

const folder = mkdtempSync(join(tmpdir(), 'petstore-recipe-'))
const file = join(folder, 'alice-bug.session.json')

const sandbox = createSandbox()
const server = setupServer(...sandbox.handlers)

beforeAll(async () => {
  // Alice's afternoon on the shared sandbox, exported to the file she sends.
  const shared = createSandbox({ seed: 1234, count: 3 })
  const alice = shared.session('alice')
  await alice.ready
  alice.db.pets.create({ id: 4, name: 'Rex', categoryId: 2, status: 'pending' })
  writeFileSync(file, JSON.stringify(await shared.exportSession('alice')))

  server.listen(failOnUnhandledRequest)
  const data = JSON.parse(readFileSync(file, 'utf8')) as unknown
  await sandbox.importSession('default', data)
})
afterAll(() => {
  server.close()
  rmSync(folder, { recursive: true, force: true })
})

test('the pending list Alice saw', async () => {
  const pets = await listPendingPets('https://api.example.test', 'sandbox-free-key')
  expect(pets.map((pet) => pet.name)).toContain('Rex')
})

test('or under a session id of its own, with that session key', async () => {
  const data = JSON.parse(readFileSync(file, 'utf8')) as unknown
  await sandbox.importSession('alice-bug', data)
  const pets = await listPendingPets(
    'https://api.example.test',
    'sandbox-free-key.alice-bug',
  )
  expect(pets.map((pet) => pet.name)).toContain('Rex')
})
