import type { Faker } from '@faker-js/faker'
// faker's base build, without locale data. The package's main entry loads every locale
// (bench: 120-160 ms of the standalone server's startup), and even the English one is
// 288 KB of source to load at every start, of which the sandbox uses the pet names.
import { faker as baseFaker } from '@faker-js/faker/locale/base'
import type { Category, PetFixture } from './fixtures.js'
import type { PetStatus } from './schemas.js'

/**
 * faker's English `animal.pet_name` (@faker-js/faker 10, MIT licence), the only locale
 * data seeding draws from: the same seed gives the same names as faker's English build
 * (seed.test.ts checks both).
 */
// prettier-ignore
export const PET_NAMES = [
  'Ace', 'Archie', 'Bailey', 'Bandit', 'Bella', 'Bentley', 'Bruno', 'Buddy', 'Charlie',
  'Coco', 'Cookie', 'Cooper', 'Daisy', 'Dixie', 'Finn', 'Ginger', 'Gracie', 'Gus',
  'Hank', 'Jack', 'Jax', 'Joey', 'Kobe', 'Leo', 'Lola', 'Louie', 'Lucy', 'Maggie', 'Max',
  'Mia', 'Milo', 'Molly', 'Murphey', 'Nala', 'Nova', 'Ollie', 'Oreo', 'Rosie', 'Scout',
  'Stella', 'Teddy', 'Tuffy',
]

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
  const FakerClass = baseFaker.constructor as typeof Faker
  // A private instance, so seeding never touches the shared one users may have seeded.
  const faker = new FakerClass({
    locale: [{ animal: { pet_name: PET_NAMES } }, baseFaker.rawDefinitions],
  })
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
