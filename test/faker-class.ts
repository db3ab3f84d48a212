import type { Faker as FakerClass } from '@faker-js/faker'
import { faker } from '@faker-js/faker/locale/base'

// Under vitest, `import { Faker } from '@faker-js/faker'` of src resolves here
// (vitest.config.ts): faker's package entry imports all 70 of its locales, about 350 ms
// in the fresh process of every test file, where its base locale's module loads the same
// `Faker` class alone (faker's `faker` instances are made by it). The builds bundle faker
// from its package entry, tree-shaken, and test/cjs-build.test.ts holds them to the
// source's pets.

/** faker's own `Faker` class. */
export const Faker = faker.constructor as typeof FakerClass
