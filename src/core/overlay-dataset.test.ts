import { expect, test } from 'vitest'
import { createSharedSeed, OverlayDataset } from './overlay-dataset.js'
import { createPetQuota } from './pet-quota.js'

const seed = createSharedSeed([
  { id: 2, name: 'Rex', categoryId: 1, status: 'available' },
  { id: 5, name: 'Tom', categoryId: 2, status: 'sold' },
])

test('finds seeded and created pets by id, and nothing between or beyond them', async () => {
  const quota = createPetQuota()
  const pets = new OverlayDataset(seed, quota)
  expect(pets.get(6)).toBeUndefined()
  const first = await pets.create({ name: 'Ada', categoryId: 1, status: 'pending' })
  const second = await pets.create({ name: 'Bo', categoryId: 2, status: 'available' })
  expect([first.id, second.id]).toEqual([6, 7])
  expect(pets.get(2)?.name).toBe('Rex')
  expect(pets.get(6)).toBe(first)
  expect(pets.get(7)).toBe(second)
  for (const id of [1, 3, 8, 6.5, Number.NaN, Number.MAX_SAFE_INTEGER]) {
    expect(pets.get(id)).toBeUndefined()
  }
  expect(pets.list({ limit: 10 }).map((pet) => pet.id)).toEqual([2, 5, 6, 7])
  expect(pets.list({ status: 'available', limit: 10 }).map((pet) => pet.id)).toEqual([
    2, 7,
  ])
  expect(pets.count()).toBe(4)
})

test('counts its created pets towards the quota until released; another overlay starts empty', async () => {
  const quota = createPetQuota({ maxPets: 1 })
  const pets = new OverlayDataset(seed, quota)
  await pets.create({ name: 'Ada', categoryId: 1, status: 'pending' })
  await expect(
    pets.create({ name: 'Bo', categoryId: 1, status: 'pending' }),
  ).rejects.toThrow(/holds 1 created pets/)
  expect(quota.total).toBe(1)
  const other = new OverlayDataset(seed, quota)
  expect(other.created()).toEqual([])
  expect(other.get(6)).toBeUndefined()
  pets.release()
  expect(quota.total).toBe(0)
})
