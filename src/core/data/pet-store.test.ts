import { Collection } from '@msw/data'
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

test("the claiming store takes the seed's own collection, another copies it; edits through it are served, and a reset makes it again", async () => {
  const own = await createSeed([
    { id: 2, name: 'Rex', categoryId: 1, status: 'available' },
    { id: 5, name: 'Tom', categoryId: 2, status: 'sold' },
  ])
  const first = new PetStore({ seed: () => own, quota: createPetQuota(), claims: true })
  const claimed = first.current
  // The seed's records themselves, in the collection they were made in: no copy.
  expect(claimed?.all()).toEqual(own.pets)
  expect(claimed?.all()[0]).toBe(own.byId.get(2))
  const other = new PetStore({ seed: () => own, quota: createPetQuota(), claims: true })
  expect(other.current).toBeUndefined()
  await other.create({ name: 'Ada', categoryId: 1 })
  await other.want()
  const pets = other.current!
  expect(pets).not.toBe(claimed)
  expect(pets.findMany().map((pet) => pet.name)).toEqual(['Rex', 'Tom', 'Ada'])
  await pets.update((q) => q.where({ id: 2 }), {
    data(pet) {
      pet.name = 'Rexy'
    },
  })
  expect(other.get(2)?.name).toBe('Rexy')
  // The shared record is untouched: the update made a new one.
  expect(own.byId.get(2)?.name).toBe('Rex')
  expect(claimed?.findFirst((q) => q.where({ id: 2 }))?.name).toBe('Rex')
  await pets.create({ id: 40, name: 'Planted', categoryId: 1 })
  expect(other.get(40)?.name).toBe('Planted')
  expect((await other.create({ name: 'Next', categoryId: 1 })).id).toBe(41)
  pets.delete((q) => q.where({ id: 5 }))
  expect(other.get(5)).toBeUndefined()
  const reset = other.reset()
  // Wanted, its collection is made again: a load, as a reload or restore is.
  expect(other.loading).toBe(true)
  await reset
  expect(other.current).not.toBe(pets)
  expect(other.current?.findMany().map((pet) => pet.name)).toEqual(['Rex', 'Tom'])
  expect(other.get(40)).toBeUndefined()
  // Never wanted, a store resets at once and serves the seed without a collection.
  const plain = new PetStore({ seed: () => own, quota: createPetQuota() })
  await plain.create({ name: 'Bo', categoryId: 1 })
  expect(plain.reset()).toBe(plain.ready)
  expect(plain.loading).toBe(false)
  expect(plain.list({ limit: 5 }).map((pet) => pet.id)).toEqual([2, 5])
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

test('a seed still being made: requests wait for ready, and the guarded collection reads once it lands', async () => {
  const pets = new PetStore({
    seed: () => createSeed([{ name: 'Late', categoryId: 1 }]),
    quota: createPetQuota(),
  })
  const collection = pets.guarded('sandbox')
  expect(pets.loading).toBe(true)
  expect(() => collection.findMany()).toThrow(/still loading/)
  await pets.ready
  expect(collection.findMany().map((pet) => pet.name)).toEqual(['Late'])
  // A restore gives the world a new collection: the guarded one follows it.
  const before = pets.current
  await pets.restore([{ id: 3, name: 'Back', categoryId: 1 }])
  expect(pets.current).not.toBe(before)
  expect(collection.findMany().map((pet) => pet.name)).toEqual(['Back'])
  expect(collection).toBeInstanceOf(Collection)
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

test('a reset keeps a collection that only gained its own creates, deleting them in place; any other change makes it again', async () => {
  const own = await createSeed([
    { id: 1, name: 'Rex', categoryId: 1 },
    { id: 2, name: 'Tom', categoryId: 2 },
  ])
  const pets = new PetStore({ seed: () => own, quota: createPetQuota(), claims: true })
  const collection = pets.current!
  await pets.create({ name: 'Ada', categoryId: 1 })
  expect(collection.count()).toBe(3)
  await pets.reset()
  expect(pets.current).toBe(collection)
  expect(collection.all()).toEqual(own.pets)
  expect((await pets.create({ name: 'Bo', categoryId: 1 })).id).toBe(3)
  // A change a test made through it: the seed's own collection cannot go back in place.
  collection.delete((q) => q.where({ id: 1 }))
  void pets.want()
  await pets.reset()
  expect(pets.current).not.toBe(collection)
  expect(pets.current?.all().map((pet) => pet.id)).toEqual([1, 2])
  expect(collection.all().map((pet) => pet.id)).toEqual([2, 3])
})
