import { expect, test } from 'vitest'
import { createSandbox } from '../sandbox.js'
import { jsonText } from './reply.js'

test('jsonText writes what JSON.stringify writes, for records, lists of them and anything else', async () => {
  const sandbox = createSandbox({ seed: 42 })
  await sandbox.ready
  const pets = sandbox.db.pets.all().slice(0, 20)
  const plain = { id: 1, name: 'Rex', categoryId: 1, status: 'available' }
  const values: unknown[] = [
    pets,
    pets,
    pets[0],
    [],
    [pets[0], plain],
    [pets[0], undefined, null, 1],
    [Object.freeze({ nested: Object.freeze({ a: 1 }) })],
    Object.freeze({ list: [1, 2] }),
    { code: 'not_found', message: 'No pet with id 1.', status: 404 },
    'text',
    7,
    null,
  ]
  for (const value of values) expect(jsonText(value)).toBe(JSON.stringify(value))
})

test('a record changed by @msw/data is written anew, and a frozen object with a getter is never kept', async () => {
  const sandbox = createSandbox({ seed: 42 })
  await sandbox.ready
  const first = () => sandbox.db.pets.findFirst((q) => q.where({ id: 1 }))
  expect(jsonText([first()])).toBe(JSON.stringify([first()]))
  await sandbox.db.pets.update((q) => q.where({ id: 1 }), {
    data(pet) {
      pet.name = 'Renamed'
    },
  })
  expect(jsonText([first()])).toContain('"name":"Renamed"')
  let calls = 0
  const live = Object.freeze({
    get count() {
      calls++
      return calls
    },
  })
  expect(jsonText(live)).toBe('{"count":1}')
  expect(jsonText(live)).toBe('{"count":2}')
})
