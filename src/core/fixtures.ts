import * as z from 'zod'
import defaultApiKeys from '../../fixtures/api-keys.json'
import defaultCategories from '../../fixtures/categories.json'
import { SandboxError } from './errors.js'
import { checkPetIds } from './ids.js'
import { describeIssues } from './issues.js'
import { MAX_NAME_LENGTH } from './limits.js'
import { petStatusSchema, MAX_SAFE_ID } from './schemas.js'

const limitSchema = z.number().int().positive().max(MAX_SAFE_ID)

export const planSchema = z.strictObject({
  label: z.string().min(1).optional(),
  perMinute: limitSchema,
  perDay: limitSchema,
})

export const apiKeysFixtureSchema = z.strictObject({
  plans: z.record(z.string().min(1), planSchema),
  keys: z
    .array(
      z.strictObject({
        key: z.string().regex(/^[\x21-\x7e]+$/, 'must be printable ASCII without spaces'),
        plan: z.string().min(1),
        expired: z.boolean().optional(),
      }),
    )
    .min(1),
})

export const categoriesFixtureSchema = z
  .array(
    z.strictObject({
      id: z.number().int().positive().max(MAX_SAFE_ID),
      name: z.string().min(1),
    }),
  )
  .min(1)

/** A fixed pet: an explicit `id` is kept, otherwise ids follow in order. */
export const petFixtureSchema = z.strictObject({
  id: z.number().int().positive().max(MAX_SAFE_ID).optional(),
  name: z.string().min(1).max(MAX_NAME_LENGTH),
  categoryId: z.number().int().positive().max(MAX_SAFE_ID),
  status: petStatusSchema.optional(),
})

export const fixturesSchema = z.strictObject({
  apiKeys: apiKeysFixtureSchema.optional(),
  categories: categoriesFixtureSchema.optional(),
  pets: z.array(petFixtureSchema).optional(),
})

export type Plan = z.infer<typeof planSchema>
export type ApiKeysFixture = z.infer<typeof apiKeysFixtureSchema>
export type Category = z.infer<typeof categoriesFixtureSchema>[number]
export type PetFixture = z.infer<typeof petFixtureSchema>

/**
 * Fixed data instead of (or beside) the defaults: demo keys and plans, the categories
 * seeded pets are drawn from, and pets to serve instead of faker's.
 * @see README.md#fixtures
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
      describeIssues(parsed.error.issues, 'fixtures'),
      'See README.md#fixtures for the format: { "apiKeys": {...}, "categories": [...], "pets": [...] }.',
    )
  }
  const apiKeys = parsed.data.apiKeys ?? (defaultApiKeys as ApiKeysFixture)
  for (const [index, entry] of apiKeys.keys.entries()) {
    if (!apiKeys.plans[entry.plan]) {
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
