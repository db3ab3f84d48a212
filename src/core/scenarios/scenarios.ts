import defaultScenario from '../../../scenarios/default.json'
import rateLimited from '../../../scenarios/rate-limited.json'
import rateLimitCountdown from '../../../scenarios/rate-limit-countdown.json'
import expiredKey from '../../../scenarios/expired-key.json'
import invalidKey from '../../../scenarios/invalid-key.json'
import missingPet from '../../../scenarios/missing-pet.json'
import emptyStore from '../../../scenarios/empty-store.json'
import slowNetwork from '../../../scenarios/slow-network.json'
import flakyNetwork from '../../../scenarios/flaky-network.json'
import { SandboxError } from '../common/errors.js'
import { petFixtureSchema } from '../data/fixtures.js'
import { checkPetIds } from '../common/ids.js'
import { describeIssues, fieldPath } from '../common/describe-issues.js'
import { latencySchema, type Latency } from './latency.js'
import {
  MAX_COUNT,
  MAX_DEFINED_COUNT,
  MAX_SCENARIO_NAME_LENGTH,
  MAX_SCENARIO_PLANS,
  MAX_SCENARIO_TEXT_LENGTH,
} from '../common/limits.js'
import { PROTO_NAME_REASON, protoNamedRecord } from '../common/own-names.js'
import { atMostValues, runNow, SliceMeter, type Steps } from '../common/slices.js'
import { thousands } from '../common/text.js'
import * as z from 'zod/mini'
import type { $ZodIssue } from 'zod/v4/core'

/** The operations of the v1 API, by the seed's operation names. */
export const OPERATIONS = ['listPets', 'createPet', 'getPet'] as const
export type Operation = (typeof OPERATIONS)[number]

const positiveInt = () => z.number().check(z.int(), z.positive())

const forcedErrorSchema = z.strictObject({
  status: z.number().check(
    z.int(),
    z.gte(400),
    z.lte(599),
    // These carry headers a client relies on (Retry-After, Allow) or codes of their own:
    // the auth and rateLimits fields produce them faithfully.
    z.refine((status) => ![401, 405, 429].includes(status), {
      message: 'must not be 401, 405 or 429: use auth or rateLimits for those',
    }),
  ),
  code: z
    .string()
    .check(
      z.regex(/^[a-z][a-z0-9_]*$/, 'must be snake_case, e.g. "not_found"'),
      z.maxLength(MAX_SCENARIO_NAME_LENGTH),
    ),
  message: z.optional(
    z.string().check(z.minLength(1), z.maxLength(MAX_SCENARIO_TEXT_LENGTH)),
  ),
})

/** The share of an operation's requests that get no answer (docs/faults.md). */
const faultSchema = z.strictObject({
  drop: z.number().check(z.gte(0), z.lte(1)),
})

const planLimitsSchema = z.strictObject({
  perMinute: positiveInt(),
  perDay: positiveInt(),
})

/** The schema of a scenario file; `strictObject` so a misspelt field is an error. */
export const scenarioSchema = z.strictObject({
  name: z
    .string()
    .check(
      z.regex(/^[a-z0-9][a-z0-9-]*$/, 'must be kebab-case letters, digits and dashes'),
      z.maxLength(MAX_SCENARIO_NAME_LENGTH),
    ),
  description: z.string().check(z.minLength(1), z.maxLength(MAX_SCENARIO_TEXT_LENGTH)),
  auth: z.optional(
    z.strictObject({
      expireAllKeys: z.optional(z.boolean()),
      rejectAllKeys: z.optional(z.boolean()),
    }),
  ),
  rateLimits: z.optional(
    z.strictObject({
      plans: z.optional(
        z
          .record(
            z.string().check(z.minLength(1), z.maxLength(MAX_SCENARIO_NAME_LENGTH)),
            planLimitsSchema,
          )
          .check(
            z.refine((plans) => Object.keys(plans).length <= MAX_SCENARIO_PLANS, {
              message: `must name at most ${MAX_SCENARIO_PLANS} plans`,
            }),
          ),
      ),
      exhausted: z.optional(z.boolean()),
      ban: z.optional(
        z.strictObject({
          afterIgnoredRetries: positiveInt(),
          durationSeconds: positiveInt(),
        }),
      ),
    }),
  ),
  data: z.optional(
    z.strictObject({
      seed: z.optional(z.number().check(z.int())),
      count: z.optional(z.number().check(z.int(), z.gte(0), z.lte(MAX_COUNT))),
      pets: z.optional(z.array(petFixtureSchema)),
    }),
  ),
  latency: z.optional(latencySchema),
  /**
   * Demo keys that select this scenario, each with the plan it has: a client that can
   * only choose its key (a mobile app, Postman, a partner's backend) gets the scenario.
   */
  keys: z.optional(
    z.record(
      z
        .string()
        .check(
          z.regex(
            /^[\x21-\x2d\x2f-\x7e]{1,100}$/,
            'must be printable ASCII without "." or spaces',
          ),
        ),
      z.string().check(z.minLength(1)),
    ),
  ),
  errors: z.optional(z.partialRecord(z.enum([...OPERATIONS, '*']), forcedErrorSchema)),
  /** Connections the sandbox drops, per operation or `*` (docs/faults.md). */
  faults: z.optional(z.partialRecord(z.enum([...OPERATIONS, '*']), faultSchema)),
})

/**
 * A scenario: what changes compared with the default behaviour (auth outcomes, plan
 * limits and window state, data, latency, per-operation forced errors and dropped
 * connections).
 * @see docs/scenarios.md
 */
export type Scenario = z.infer<typeof scenarioSchema>
export type { Latency }
export type ForcedError = z.infer<typeof forcedErrorSchema>
/** What a scenario's `faults` says of one operation: the share of its requests dropped. */
export type Fault = z.infer<typeof faultSchema>

/**
 * Returns a scenario as plain, validated data. Use it for scenarios written in code.
 *
 * @example
 * const flaky = defineScenario({
 *   name: 'flaky-get',
 *   description: 'getPet fails with 503',
 *   errors: { getPet: { status: 503, code: 'service_unavailable' } },
 * })
 * createSandbox({ scenarios: [flaky], scenario: 'flaky-get' })
 * @see docs/scenarios.md#your-own-scenarios
 */
export function defineScenario(
  scenario: Scenario,
  source = 'defineScenario()',
): Scenario {
  return parseScenario(scenario, source)
}

/** What the sandbox that parses a scenario knows of itself, to check it against. */
export interface ScenarioContext {
  /** The sandbox's `maxPets`: bounds the ids of the scenario's pets. */
  maxPets?: number
  /** 'define' for a scenario defined at run time, whose fields leave out keys. */
  action?: 'load' | 'define'
  /**
   * The names of the fixtures' plans, which `rateLimits.plans` may use. Left out where
   * the fixtures are not known yet (a file read before the sandbox that loads it is
   * made): that sandbox parses it again with them.
   */
  plans?: readonly string[]
  /** The sandbox's `count`: what a `data` without `count` or `pets` seeds. */
  count?: number
}

/**
 * The most values (fields and their values, at any depth) a scenario holds besides its
 * `data.pets`: checked before its schema reads it, since zod gathers every issue of a
 * value and a record of 100,000 wrong entries overflowed its stack. The largest
 * scenario of the bundled ones holds some 60.
 */
export const MAX_SCENARIO_VALUES = 10_000

/** The most values of one pet of `data.pets`: a pet has five fields. */
const MAX_PET_VALUES = 32

/**
 * Checks the size of a scenario (its values besides `data.pets`, MAX_SCENARIO_VALUES)
 * and then its `data.pets` one pet at a time, stopping at the first wrong one, in
 * slices: the refusal's reason, or undefined. `at` is where the scenario is (its field
 * path), `describe` words zod's issues of a pet, their paths from there.
 */
export function* scenarioSizeSteps(
  data: unknown,
  at: readonly PropertyKey[],
  describe: (issues: readonly $ZodIssue[]) => string,
): Steps<string | undefined> {
  if (!isObject(data)) return undefined
  const inner = (data as { data?: unknown }).data
  const pets = isObject(inner) ? (inner as { pets?: unknown }).pets : undefined
  if (!atMostValues(data, MAX_SCENARIO_VALUES, pets)) {
    return `${at.length === 0 ? 'the scenario' : fieldPath(at, '')} holds more than ${thousands(MAX_SCENARIO_VALUES)} values besides data.pets (fields and their values at any depth), more than any scenario needs: name only the operations, plans and keys it changes, and seed many pets with data.count`
  }
  if (!Array.isArray(pets)) return undefined
  const meter = new SliceMeter()
  for (const [index, pet] of pets.entries()) {
    const path = [...at, 'data', 'pets', index]
    if (!atMostValues(pet, MAX_PET_VALUES)) {
      return `${fieldPath(path, '')} holds more than ${MAX_PET_VALUES} values, more than a pet has`
    }
    const parsed = petFixtureSchema.safeParse(pet, { reportInput: true })
    if (!parsed.success) {
      return describe(
        parsed.error.issues
          .slice(0, 3)
          .map((issue) => ({ ...issue, path: [...path, ...issue.path] })),
      )
    }
    if (meter.add()) yield meter.take()
  }
  return undefined
}

/**
 * Validates unknown data as a scenario; `source` (a file path) is named in errors.
 */
export function parseScenario(
  data: unknown,
  given: string,
  { maxPets, action = 'load', plans, count }: ScenarioContext = {},
): Scenario {
  // A scenario parsed before (a file, then the options) keeps naming its first source.
  const source = (isObject(data) && sources.get(data)) || given
  checkProtoNames(data, `${action} the scenario ${source}`)
  const tooLarge = runNow(
    scenarioSizeSteps(data, [], (issues) =>
      describeIssues(issues, 'scenario', scenarioSchema),
    ),
  )
  if (tooLarge !== undefined) {
    throw SandboxError.for(
      'INVALID_SCENARIO',
      `${action} the scenario ${source}`,
      tooLarge,
      'Fix the field named above (see docs/scenarios.md#your-own-scenarios).',
    )
  }
  const parsed = scenarioSchema.safeParse(data, { reportInput: true })
  if (!parsed.success) {
    throw SandboxError.for(
      'INVALID_SCENARIO',
      `${action} the scenario ${source}`,
      describeIssues(parsed.error.issues, 'scenario', scenarioSchema),
      parsed.error.issues.some((issue) => issue.path[0] === 'faults')
        ? FAULTS_FIX
        : `Fix the field named above; the allowed fields are ${Object.keys(
            scenarioSchema.shape,
          )
            .filter((field) => action === 'load' || field !== 'keys')
            .join(', ')} (see docs/scenarios.md#your-own-scenarios).`,
    )
  }
  const { auth, data: pets } = parsed.data
  if (pets?.pets) {
    checkPetIds(pets.pets, {
      code: 'INVALID_SCENARIO',
      action: `${action} the scenario ${source}`,
      field: 'data.pets',
      maxPets,
    })
  }
  // What it seeds: its own pets, its count, or (data without either) the sandbox's count.
  const seeds = pets && !pets.pets ? (pets.count ?? count ?? 0) : 0
  if (action === 'define' && seeds > MAX_DEFINED_COUNT) {
    throw SandboxError.for(
      'INVALID_SCENARIO',
      `${action} the scenario ${source}`,
      pets?.count === undefined
        ? `its data seeds the sandbox's count, ${thousands(seeds)} pets, more than the ${thousands(MAX_DEFINED_COUNT)} a scenario defined at run time seeds`
        : `data.count is ${thousands(seeds)}, more than the ${thousands(MAX_DEFINED_COUNT)} pets a scenario defined at run time seeds`,
      `Seed at most ${thousands(MAX_DEFINED_COUNT)}${pets?.count === undefined ? ' (give data.count)' : ''}, or put the scenario in a file and load it at start (--scenario ./big.json), where data.count goes up to ${thousands(MAX_COUNT)}.`,
    )
  }
  // The built-in ones limit every plan of the bundled fixtures, and keep working under
  // fixtures of other plans (as their keys do, auth.ts).
  if (plans && !isBuiltIn(parsed.data)) {
    checkPlanNames(parsed.data, plans, `${action} the scenario ${source}`)
  }
  if (auth?.expireAllKeys && auth.rejectAllKeys) {
    throw SandboxError.for(
      'INVALID_SCENARIO',
      `${action} the scenario ${source}`,
      'auth.expireAllKeys and auth.rejectAllKeys are both true',
      'Choose one: expired keys answer expired_api_key, rejected keys invalid_api_key.',
    )
  }
  sources.set(parsed.data, source)
  return parsed.data
}

/**
 * Refuses a `rateLimits.plans` name the fixtures have no plan of: no key is on that plan,
 * so its limits would limit nothing, and a "Free" meant as "free" would silently leave
 * the plan's own limits in force.
 */
function checkPlanNames(scenario: Scenario, plans: readonly string[], action: string) {
  for (const name of Object.keys(scenario.rateLimits?.plans ?? {})) {
    if (plans.includes(name)) continue
    const meant = plans.find((plan) => plan.toLowerCase() === name.toLowerCase())
    throw SandboxError.for(
      'INVALID_SCENARIO',
      action,
      `rateLimits.plans.${name} names the plan ${JSON.stringify(name)}, which the fixtures do not have (${plans.join(', ')})`,
      meant === undefined
        ? "Name one of those plans, or add the plan to the fixtures' apiKeys.plans (see docs/options.md#fixtures)."
        : `Write ${JSON.stringify(meant)}: plan names are case-sensitive.`,
    )
  }
}

/**
 * Refuses a record of a scenario that names something "__proto__" (a parser would drop
 * that key, plan, error or fault silently), before the schema, which stays a plain record
 * for the OpenAPI documents, reads it.
 */
export function checkProtoNames(data: unknown, action: string) {
  const field = protoNamedRecord(data, [
    ['keys'],
    ['rateLimits', 'plans'],
    ['errors'],
    ['faults'],
  ])
  if (field !== undefined) {
    throw SandboxError.for(
      'INVALID_SCENARIO',
      action,
      `${field} ${PROTO_NAME_REASON}`,
      'Rename it.',
    )
  }
}

/** The fix a mistake in `faults` gets: its shape, which zod's issues do not spell out. */
const FAULTS_FIX = `Write faults as {"<operation or *>": {"drop": <share from 0 to 1>}} with an operation of ${OPERATIONS.join(', ')} or * (all of them), e.g. {"*": {"drop": 0.2}} (see docs/faults.md).`

/** The source (a file path, an option) each parsed scenario came from. */
const sources = new WeakMap<object, string>()

/** Where a parsed scenario came from, for messages: its file's path, or the option. */
export function scenarioSource(scenario: object): string | undefined {
  return sources.get(scenario)
}

function isObject(value: unknown): value is object {
  return typeof value === 'object' && value !== null
}

/** The scenarios bundled with the package, so every runtime (the browser too) has them. */
export const BUILT_IN_SCENARIOS: readonly Scenario[] = [
  defaultScenario,
  rateLimited,
  rateLimitCountdown,
  expiredKey,
  invalidKey,
  missingPet,
  emptyStore,
  slowNetwork,
  flakyNetwork,
].map((scenario) => parseScenario(scenario, `scenarios/${scenario.name}.json`))

/** The names of the built-in scenarios. */
export const SCENARIO_NAMES = BUILT_IN_SCENARIOS.map((scenario) => scenario.name)

/** Whether it is a built-in scenario, or the same definition (its shipped file, read again). */
export function isBuiltIn(scenario: Scenario): boolean {
  return BUILT_IN_SCENARIOS.some(
    (builtIn) => builtIn.name === scenario.name && sameDefinition(builtIn, scenario),
  )
}

/**
 * Whether two scenarios of one name are the same definition: one file given twice, the
 * startup file also among the scenarios, the shipped copy of a built-in's file.
 */
export function sameDefinition(a: Scenario, b: Scenario): boolean {
  return a === b || JSON.stringify(a) === JSON.stringify(b)
}
