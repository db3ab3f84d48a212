import type { Faker } from '@faker-js/faker'
import { faker as englishFaker } from '@faker-js/faker/locale/en'
import { expect, test } from 'vitest'
import { generatePets, PET_NAMES, SEED_REFERENCE_DATE } from './seed.js'

const CATEGORIES = [
  { id: 1, name: 'Dogs' },
  { id: 2, name: 'Cats' },
  { id: 7, name: 'Birds' },
]

test("the vendored pet names are faker's English ones", () => {
  expect(PET_NAMES).toEqual(englishFaker.rawDefinitions.animal?.pet_name)
})

test("seeded pets are the ones faker's whole English build gives", () => {
  // generatePets as it was with the English locale loaded, for the same seed.
  const FakerClass = englishFaker.constructor as typeof Faker
  const english = new FakerClass({ locale: englishFaker.rawDefinitions })
  english.seed(9)
  english.setDefaultRefDate(SEED_REFERENCE_DATE)
  const weights = [
    { weight: 55, value: 'available' },
    { weight: 25, value: 'pending' },
    { weight: 15, value: 'sold' },
    { weight: 5, value: undefined },
  ]
  const expected = Array.from({ length: 2000 }, (_, index) => {
    const name = english.animal.petName()
    const categoryId = english.helpers.arrayElement(CATEGORIES).id
    const status = english.helpers.weightedArrayElement(weights)
    return { id: index + 1, name, categoryId, ...(status && { status }) }
  })
  const pets = generatePets(9, 2000, CATEGORIES)
  expect(pets).toEqual(expected)
  expect(new Set(pets.map((pet) => pet.name)).size).toBe(PET_NAMES.length)
})
