import { Faker } from '@faker-js/faker'
import { faker as englishFaker } from '@faker-js/faker/locale/en'
import { expect, test } from 'vitest'
import { SandboxError } from '../common/errors.js'
import {
  GENERATE_SLICE,
  generatePets,
  generatePetsSteps,
  PET_NAMES_LOCALE,
} from './seed.js'

// Seeding runs on faker itself (a Faker given one locale section, seed.ts). These tests
// hold it to faker's whole English build, as the sandbox seeded before (so no seeded
// pet moved), and pin a slice of it, byte for byte, so a faker upgrade that changes
// the data fails here before it reaches a user's snapshots.

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
  const english = new Faker({ locale: englishFaker.rawDefinitions })
  english.seed(seed)
  return Array.from({ length: count }, (_, index) => {
    const name = english.animal.petName()
    const categoryId = english.helpers.arrayElement(categories).id
    const status = english.helpers.weightedArrayElement(WEIGHTS)
    return { id: index + 1, name, categoryId, ...(status && { status }) }
  })
}

test("the locale section seeding's Faker is given is faker's English pet names", () => {
  expect(PET_NAMES_LOCALE.animal.pet_name).toEqual(
    englishFaker.rawDefinitions.animal?.pet_name,
  )
})

test('seed 42 gives these pets, byte for byte', () => {
  expect(JSON.stringify(generatePets(42, 12, CATEGORIES))).toBe(
    '[{"id":1,"name":"Ginger","categoryId":7,"status":"pending"},' +
      '{"id":2,"name":"Louie","categoryId":1,"status":"available"},' +
      '{"id":3,"name":"Bailey","categoryId":7,"status":"pending"},' +
      '{"id":4,"name":"Mia","categoryId":1},' +
      '{"id":5,"name":"Nova","categoryId":1,"status":"available"},' +
      '{"id":6,"name":"Buddy","categoryId":1,"status":"available"},' +
      '{"id":7,"name":"Hank","categoryId":1,"status":"pending"},' +
      '{"id":8,"name":"Bentley","categoryId":1,"status":"available"},' +
      '{"id":9,"name":"Jack","categoryId":7,"status":"available"},' +
      '{"id":10,"name":"Joey","categoryId":2,"status":"available"},' +
      '{"id":11,"name":"Louie","categoryId":1,"status":"available"},' +
      '{"id":12,"name":"Stella","categoryId":7,"status":"sold"}]',
  )
})

test("seeded pets are the ones faker's whole English build gives", () => {
  const pets = generatePets(9, 2000, CATEGORIES)
  expect(pets).toEqual(fakerPets(9, 2000, CATEGORIES))
  expect(new Set(pets.map((pet) => pet.name)).size).toBe(
    PET_NAMES_LOCALE.animal.pet_name.length,
  )
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

test('two worlds seeding at once, slice by slice, each get the pets of their seed', () => {
  const count = GENERATE_SLICE * 2 + 5
  const first = generatePetsSteps(42, count, CATEGORIES)
  const second = generatePetsSteps(7, count, CATEGORIES)
  let firstStep = first.next()
  let secondStep = second.next()
  while (!firstStep.done || !secondStep.done) {
    if (!firstStep.done) firstStep = first.next()
    if (!secondStep.done) secondStep = second.next()
  }
  expect(firstStep.value).toEqual(generatePets(42, count, CATEGORIES))
  expect(secondStep.value).toEqual(generatePets(7, count, CATEGORIES))
})

test('no categories to draw from: an error naming the fix; no pets need none', () => {
  expect(() => generatePets(42, 3, [])).toThrow(SandboxError)
  expect(() => generatePets(42, 3, [])).toThrow(
    /there are no categories to draw from.*Give at least one category in fixtures\.categories/s,
  )
  expect(generatePets(42, 0, [])).toEqual([])
})
