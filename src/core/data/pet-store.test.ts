import { expect, test } from 'vitest'
import { createPetQuota } from './pet-quota.js'
import { createSeed, RecordFactory } from './pet-seed.js'
import { PetStore } from './pet-store.js'

const seed = await createSeed([
  { id: 2, name: 'Rex', categoryId: 1, status: 'available' },
  { id: 5, name: 'Tom', categoryId: 2, status: 'sold' },
])

test('serves the shared seed, then its own creates after it, by id and in id order', async () => {
  const pets = new PetStore({ seed: () => seed, quota: createPetQuota() })
  expect(pets.get(5)).toBe(seed.byId.get(5))
  expect(pets.get(6)).toBeUndefined()
  const first = await pets.create({ name: 'Ada', categoryId: 1, status: 'pending' })
  const second = await pets.create({ name: 'Bo', categoryId: 2, status: 'available' })
  expect([first.id, second.id]).toEqual([6, 7])
  expect(pets.get(2)?.name).toBe('Rex')
  expect(pets.get(6)).toEqual(first)
  for (const id of [1, 3, 8, 6.5, Number.NaN, Number.MAX_SAFE_INTEGER]) {
    expect(pets.get(id)).toBeUndefined()
  }
  expect(pets.list({ limit: 10 }).map((pet) => pet.id)).toEqual([2, 5, 6, 7])
  expect(pets.list({ status: 'available', limit: 10 }).map((pet) => pet.id)).toEqual([
    2, 7,
  ])
  expect(pets.count()).toBe(4)
  expect(pets.created().map((pet) => pet.id)).toEqual([6, 7])
})

test('its collection holds the seed at the first read, synchronously, and edits through it are served', async () => {
  const pets = new PetStore({ seed: () => seed, quota: createPetQuota() })
  const collection = pets.collection
  expect(collection.findMany().map((pet) => pet.name)).toEqual(['Rex', 'Tom'])
  await collection.update((q) => q.where({ id: 2 }), {
    data(pet) {
      pet.name = 'Rexy'
    },
  })
  expect(pets.get(2)?.name).toBe('Rexy')
  // The shared record is untouched: the update made a new one.
  expect(seed.byId.get(2)?.name).toBe('Rex')
  await collection.create({ id: 40, name: 'Planted', categoryId: 1 })
  expect(pets.get(40)?.name).toBe('Planted')
  expect((await pets.create({ name: 'Next', categoryId: 1 })).id).toBe(41)
  collection.delete((q) => q.where({ id: 5 }))
  expect(pets.get(5)).toBeUndefined()
  await pets.reset()
  expect(pets.collection).toBe(collection)
  expect(collection.findMany().map((pet) => pet.name)).toEqual(['Rex', 'Tom'])
  expect(pets.get(40)).toBeUndefined()
})

test('counts its created pets towards the quota until released; another store starts from the seed', async () => {
  const quota = createPetQuota({ maxPets: 1 })
  const pets = new PetStore({ seed: () => seed, quota })
  await pets.create({ name: 'Ada', categoryId: 1, status: 'pending' })
  await expect(
    pets.create({ name: 'Bo', categoryId: 1, status: 'pending' }),
  ).rejects.toThrow(/holds 1 created pets/)
  expect(quota.total).toBe(1)
  const other = new PetStore({ seed: () => seed, quota })
  expect(other.created()).toEqual([])
  expect(other.get(6)).toBeUndefined()
  pets.release()
  expect(quota.total).toBe(0)
})

test('a seed still being made: requests wait for ready, and the collection fills when it lands', async () => {
  const pets = new PetStore({
    seed: () => createSeed([{ name: 'Late', categoryId: 1 }]),
    quota: createPetQuota(),
  })
  const collection = pets.collection
  expect(pets.loading).toBe(true)
  await pets.ready
  expect(collection.findMany().map((pet) => pet.name)).toEqual(['Late'])
})

test("each seed makes its stores' single records in a factory of its own: two sandboxes share none", async () => {
  const other = await createSeed([{ id: 2, name: 'Rex', categoryId: 1 }])
  expect(seed.records).toBeInstanceOf(RecordFactory)
  expect(other.records).toBeInstanceOf(RecordFactory)
  expect(other.records).not.toBe(seed.records)
  const stores = [seed, other].map(
    (from) => new PetStore({ seed: () => from, quota: createPetQuota() }),
  )
  const made = await Promise.all(
    stores.map((pets, index) => pets.create({ name: `Pet ${index}`, categoryId: 1 })),
  )
  expect(made.map((pet) => [pet.id, pet.name])).toEqual([
    [6, 'Pet 0'],
    [3, 'Pet 1'],
  ])
  // A world whose seed failed makes its records apart, in no shared collection.
  const failed = new PetStore({
    seed: () => Promise.reject(new Error('no seed')),
    quota: createPetQuota(),
  })
  await expect(failed.ready).rejects.toThrow('no seed')
  expect(await failed.create({ name: 'Alone', categoryId: 1 })).toMatchObject({ id: 1 })
})

test('a restore serves the restored pets, and the next id follows the largest of them', async () => {
  const pets = new PetStore({ seed: () => seed, quota: createPetQuota() })
  await pets.restore([
    { id: 1, name: 'One', categoryId: 1, status: 'available' },
    { id: 10, name: 'Ten', categoryId: 1, status: 'sold' },
  ])
  expect(pets.get(10)?.name).toBe('Ten')
  expect(pets.get(2)).toBeUndefined()
  expect((await pets.create({ name: 'Next', categoryId: 1 })).id).toBe(11)
  expect(pets.created().map((pet) => pet.id)).toEqual([1, 10, 11])
})
