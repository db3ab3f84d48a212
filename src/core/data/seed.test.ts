import type { Faker } from '@faker-js/faker'
import { faker as englishFaker } from '@faker-js/faker/locale/en'
import { expect, test } from 'vitest'
import { generatePets, PET_NAMES } from './seed.js'

// Seeding once ran on faker 10's English build; it now runs on a vendored copy of
// faker's Mersenne Twister (mersenne.ts). These tests hold it to faker itself: faker
// stays a devDependency for them alone.

const CATEGORIES = [
  { id: 1, name: 'Dogs' },
  { id: 2, name: 'Cats' },
  { id: 7, name: 'Birds' },
]

const WEIGHTS = [
  { weight: 55, value: 'available' },
  { weight: 25, value: 'pending' },
  { weight: 15, value: 'sold' },
  { weight: 5, value: undefined },
]

/** generatePets as it was, on faker's whole English build, for the same seed. */
function fakerPets(seed: number, count: number, categories: typeof CATEGORIES) {
  const FakerClass = englishFaker.constructor as typeof Faker
  const english = new FakerClass({ locale: englishFaker.rawDefinitions })
  english.seed(seed)
  english.setDefaultRefDate('2026-01-01T00:00:00.000Z')
  return Array.from({ length: count }, (_, index) => {
    const name = english.animal.petName()
    const categoryId = english.helpers.arrayElement(categories).id
    const status = english.helpers.weightedArrayElement(WEIGHTS)
    return { id: index + 1, name, categoryId, ...(status && { status }) }
  })
}

test("the vendored pet names are faker's English ones", () => {
  expect(PET_NAMES).toEqual(englishFaker.rawDefinitions.animal?.pet_name)
})

test("seeded pets are the ones faker's whole English build gives", () => {
  const pets = generatePets(9, 2000, CATEGORIES)
  expect(pets).toEqual(fakerPets(9, 2000, CATEGORIES))
  expect(new Set(pets.map((pet) => pet.name)).size).toBe(PET_NAMES.length)
})

test('the same as faker for other seeds, past a state refill, and one category', () => {
  // 1300 pets draw 7800 numbers, several refills of the 624-word state.
  for (const seed of [0, 1, 42, -7, 2 ** 31, 2 ** 32 + 5, Number.MAX_SAFE_INTEGER]) {
    expect(generatePets(seed, 1300, CATEGORIES), `seed ${seed}`).toEqual(
      fakerPets(seed, 1300, CATEGORIES),
    )
  }
  // faker draws no number for a one-element array: the sequence must not shift.
  const one = [{ id: 3, name: 'Fish' }]
  expect(generatePets(42, 300, one)).toEqual(fakerPets(42, 300, one))
})
