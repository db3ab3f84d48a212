import { Faker } from '@faker-js/faker'
import { SandboxError } from '../common/errors.js'
import type { Category, PetFixture } from './fixtures.js'
import type { PetStatus } from '../common/schemas.js'
import { runNow, type Steps } from '../common/slices.js'

/**
 * The locale seeding's Faker is given: faker's English `animal.pet_name` (@faker-js/faker
 * 10, MIT licence), the only locale data it draws from. A section, not faker's `en`
 * export: `en` is one object, and bundlers carry all of it (153 KB gzipped against 38 KB
 * for faker with this section; docs/performance.md, "The browser entry with faker").
 * seed.test.ts holds it to faker's English definitions.
 */
// prettier-ignore
export const PET_NAMES_LOCALE = {
  animal: {
    pet_name: [
      'Ace', 'Archie', 'Bailey', 'Bandit', 'Bella', 'Bentley', 'Bruno', 'Buddy', 'Charlie',
      'Coco', 'Cookie', 'Cooper', 'Daisy', 'Dixie', 'Finn', 'Ginger', 'Gracie', 'Gus',
      'Hank', 'Jack', 'Jax', 'Joey', 'Kobe', 'Leo', 'Lola', 'Louie', 'Lucy', 'Maggie', 'Max',
      'Mia', 'Milo', 'Molly', 'Murphey', 'Nala', 'Nova', 'Ollie', 'Oreo', 'Rosie', 'Scout',
      'Stella', 'Teddy', 'Tuffy',
    ],
  },
}

const STATUS_WEIGHTS: Array<{ weight: number; value: PetStatus | undefined }> = [
  { weight: 55, value: 'available' },
  { weight: 25, value: 'pending' },
  { weight: 15, value: 'sold' },
  // The seed states no default status, so some pets have none: clients must cope.
  { weight: 5, value: undefined },
]

/**
 * Generates `count` pets, with ids 1 to `count`: the same seed, count and categories
 * give the same pets, byte for byte, in every runtime (faker's Mersenne Twister is
 * plain integer arithmetic).
 */
export function generatePets(
  seed: number,
  count: number,
  categories: Category[],
): PetFixture[] {
  return runNow(generatePetsSteps(seed, count, categories))
}

/** Pets generated per slice by {@link generatePetsSteps}: some 4 ms of a loaded server. */
export const GENERATE_SLICE = 2048

/**
 * {@link generatePets} in steps that yield after each GENERATE_SLICE pets (a data
 * scenario of 10,000 pets took a loaded server 56 ms at once). Each pet draws, from a
 * Faker of its own seeded with `faker.seed(seed)`, a name (`animal.petName()`), a
 * category (`helpers.arrayElement`) and a status (`helpers.weightedArrayElement`), in
 * that order.
 */
export function* generatePetsSteps(
  seed: number,
  count: number,
  categories: Category[],
): Steps<PetFixture[]> {
  if (count > 0 && categories.length === 0)
    throw SandboxError.for(
      'INVALID_FIXTURES',
      'seed pets',
      'there are no categories to draw from',
      'Give at least one category in fixtures.categories.',
    )
  // An instance of its own: two worlds seeding at once, between slices, each keep
  // their sequence, and a user's seeding of faker's shared instance changes neither.
  const faker = new Faker({ locale: PET_NAMES_LOCALE })
  faker.seed(seed)
  const pets: PetFixture[] = new Array(count)
  for (let index = 0; index < count; index++) {
    if (index > 0 && index % GENERATE_SLICE === 0) yield GENERATE_SLICE
    const name = faker.animal.petName()
    const categoryId = faker.helpers.arrayElement(categories).id
    const status = faker.helpers.weightedArrayElement(STATUS_WEIGHTS)
    const id = index + 1
    pets[index] =
      status === undefined ? { id, name, categoryId } : { id, name, categoryId, status }
  }
  return pets
}
