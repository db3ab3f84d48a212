import { SandboxError } from '../common/errors.js'
import type { Category, PetFixture } from './fixtures.js'
import { createSeededRandom, type SeededRandom } from './mersenne.js'
import type { PetStatus } from '../common/schemas.js'
import { runNow, type Steps } from '../common/slices.js'

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

const STATUS_WEIGHTS: Array<{ weight: number; value: PetStatus | undefined }> = [
  { weight: 55, value: 'available' },
  { weight: 25, value: 'pending' },
  { weight: 15, value: 'sold' },
  // The seed states no default status, so some pets have none: clients must cope.
  { weight: 5, value: undefined },
]

// faker's helpers.arrayElement: a one-element array draws no number.
function arrayElement<T>(random: SeededRandom, items: readonly T[]): T {
  if (items.length === 0)
    throw SandboxError.for(
      'INVALID_FIXTURES',
      'seed pets',
      'there are no categories to draw from',
      'Give at least one category in fixtures.categories.',
    )
  return items[items.length > 1 ? Math.floor(random.next() * items.length) : 0]!
}

// faker's helpers.weightedArrayElement: number.float({ min: 0, max: total }).
function weightedArrayElement<T>(
  random: SeededRandom,
  items: ReadonlyArray<{ weight: number; value: T }>,
): T {
  const total = items.reduce((sum, { weight }) => sum + weight, 0)
  const drawn = random.next() * total
  let reached = 0
  for (const { weight, value } of items) {
    reached += weight
    if (drawn < reached) return value
  }
  return items.at(-1)!.value
}

/**
 * Generates `count` pets, with ids 1 to `count`: the same seed, count and categories
 * give the same pets, byte for byte, in every runtime, and the same as faker 10's
 * English build did (`animal.petName()`, `helpers.arrayElement`,
 * `helpers.weightedArrayElement` after `faker.seed(seed)`), which seed.test.ts checks.
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
 * scenario of 10,000 pets took a loaded server 56 ms at once).
 */
export function* generatePetsSteps(
  seed: number,
  count: number,
  categories: Category[],
): Steps<PetFixture[]> {
  const random = createSeededRandom(seed)
  const pets: PetFixture[] = new Array(count)
  for (let index = 0; index < count; index++) {
    if (index > 0 && index % GENERATE_SLICE === 0) yield GENERATE_SLICE
    const name = arrayElement(random, PET_NAMES)
    const categoryId = arrayElement(random, categories).id
    const status = weightedArrayElement(random, STATUS_WEIGHTS)
    const id = index + 1
    pets[index] =
      status === undefined ? { id, name, categoryId } : { id, name, categoryId, status }
  }
  return pets
}
