import type { Faker } from '@faker-js/faker'
// The English build alone: the package's main entry loads every locale, a large share of
// the standalone server's startup time (bench: 120-160 ms against ~20 ms).
import { faker as englishFaker } from '@faker-js/faker/locale/en'
import type { Category, PetFixture } from './fixtures.js'
import type { PetStatus } from './schemas.js'

/** Faker's reference date is pinned so no generated value depends on the day it runs. */
export const SEED_REFERENCE_DATE = '2026-01-01T00:00:00.000Z'

const STATUS_WEIGHTS: Array<{ weight: number; value: PetStatus | undefined }> = [
  { weight: 55, value: 'available' },
  { weight: 25, value: 'pending' },
  { weight: 15, value: 'sold' },
  // The seed states no default status, so some pets have none: clients must cope.
  { weight: 5, value: undefined },
]

/**
 * Generates `count` pets, with ids 1 to `count`, from a private faker instance: the same
 * seed, count and categories give the same pets, byte for byte, in every runtime.
 */
export function generatePets(
  seed: number,
  count: number,
  categories: Category[],
): PetFixture[] {
  const FakerClass = englishFaker.constructor as typeof Faker
  // A private instance, so seeding never touches the shared one users may have seeded.
  const faker = new FakerClass({ locale: englishFaker.rawDefinitions })
  faker.seed(seed)
  faker.setDefaultRefDate(SEED_REFERENCE_DATE)
  const pets: PetFixture[] = new Array(count)
  for (let index = 0; index < count; index++) {
    const name = faker.animal.petName()
    const categoryId = faker.helpers.arrayElement(categories).id
    const status = faker.helpers.weightedArrayElement(STATUS_WEIGHTS)
    const id = index + 1
    pets[index] =
      status === undefined ? { id, name, categoryId } : { id, name, categoryId, status }
  }
  return pets
}
