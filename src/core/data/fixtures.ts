import defaultApiKeys from '../../../fixtures/api-keys.json'
import defaultCategories from '../../../fixtures/categories.json'
import { SandboxError } from '../common/errors.js'
import { checkPetIds } from '../common/ids.js'
import { describeIssues } from '../common/describe-issues.js'
import { MAX_NAME_LENGTH } from '../common/limits.js'
import { hasOwnName, ownRecord } from '../common/own-names.js'
import { petStatusSchema, MAX_SAFE_ID } from '../common/schemas.js'
import * as z from 'zod/mini'

const safeId = () => z.number().check(z.int(), z.positive(), z.lte(MAX_SAFE_ID))
const nonEmpty = () => z.string().check(z.minLength(1))

export const planSchema = z.strictObject({
  label: z.optional(nonEmpty()),
  perMinute: safeId(),
  perDay: safeId(),
})

export const apiKeysFixtureSchema = z.strictObject({
  plans: ownRecord(nonEmpty(), planSchema),
  keys: z
    .array(
      z.strictObject({
        key: z
          .string()
          .check(z.regex(/^[\x21-\x7e]+$/, 'must be printable ASCII without spaces')),
        plan: nonEmpty(),
        expired: z.optional(z.boolean()),
      }),
    )
    .check(z.minLength(1)),
})

export const categoriesFixtureSchema = z
  .array(
    z.strictObject({
      id: safeId(),
      name: nonEmpty(),
    }),
  )
  .check(z.minLength(1))

/** A fixed pet: an explicit `id` is kept, otherwise ids follow in order. */
export const petFixtureSchema = z.strictObject({
  id: z.optional(safeId()),
  name: z.string().check(z.minLength(1), z.maxLength(MAX_NAME_LENGTH)),
  categoryId: safeId(),
  status: z.optional(petStatusSchema),
})

export const fixturesSchema = z.strictObject({
  apiKeys: z.optional(apiKeysFixtureSchema),
  categories: z.optional(categoriesFixtureSchema),
  pets: z.optional(z.array(petFixtureSchema)),
})

export type Plan = z.infer<typeof planSchema>
export type ApiKeysFixture = z.infer<typeof apiKeysFixtureSchema>
export type Category = z.infer<typeof categoriesFixtureSchema>[number]
export type PetFixture = z.infer<typeof petFixtureSchema>

/**
 * Fixed data instead of (or beside) the defaults: demo keys and plans, the categories
 * seeded pets are drawn from, and pets to serve instead of faker's.
 * @see docs/options.md#fixtures
 */
export type Fixtures = z.infer<typeof fixturesSchema>

/** Fixtures with every part filled in. */
export interface ResolvedFixtures {
  apiKeys: ApiKeysFixture
  categories: Category[]
  pets: PetFixture[] | undefined
}

/**
 * Validates fixtures and fills in the bundled defaults. `source` names the file (or
 * option) in error messages; `maxPets` (the sandbox's) bounds the pets' ids.
 */
export function resolveFixtures(
  fixtures: unknown,
  source = 'options.fixtures',
  maxPets?: number,
): ResolvedFixtures {
  const parsed = fixturesSchema.safeParse(fixtures ?? {}, { reportInput: true })
  if (!parsed.success) {
    throw SandboxError.for(
      'INVALID_FIXTURES',
      `load fixtures from ${source}`,
      describeIssues(parsed.error.issues, 'fixtures', fixturesSchema),
      'See docs/options.md#fixtures for the format: { "apiKeys": {...}, "categories": [...], "pets": [...] }.',
    )
  }
  const apiKeys = parsed.data.apiKeys ?? (defaultApiKeys as ApiKeysFixture)
  for (const [index, entry] of apiKeys.keys.entries()) {
    if (!hasOwnName(apiKeys.plans, entry.plan)) {
      throw SandboxError.for(
        'INVALID_FIXTURES',
        `load fixtures from ${source}`,
        `apiKeys.keys[${index}].plan "${entry.plan}" is not one of the plans (${Object.keys(apiKeys.plans).join(', ')})`,
        'Name a plan defined under apiKeys.plans, or add it there.',
      )
    }
  }
  const seen = new Set<string>()
  for (const [index, entry] of apiKeys.keys.entries()) {
    if (seen.has(entry.key)) {
      throw SandboxError.for(
        'INVALID_FIXTURES',
        `load fixtures from ${source}`,
        `apiKeys.keys[${index}].key "${entry.key}" appears twice`,
        'Give every key a distinct value.',
      )
    }
    seen.add(entry.key)
  }
  const pets = parsed.data.pets
  if (pets) {
    checkPetIds(pets, {
      code: 'INVALID_FIXTURES',
      action: `load fixtures from ${source}`,
      field: 'pets',
      maxPets,
    })
  }
  return {
    apiKeys,
    categories: parsed.data.categories ?? defaultCategories,
    pets,
  }
}

/** A demo key as the sandbox indexes it (auth.ts `createKeyIndex`). */
export interface KnownKey {
  key: string
  planName: string
  plan: Plan
  expired: boolean
  /** The scenario a scenario key selects (a scenario file's `keys`). */
  scenario?: string
}
