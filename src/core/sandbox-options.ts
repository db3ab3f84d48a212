import type { RequestHandler } from 'msw'
import * as z from 'zod/mini'
import { SandboxError } from './errors.js'
import { latencySchema } from './latency.js'
import {
  MAX_COUNT,
  MAX_JOURNAL_BYTES_LIMIT,
  MAX_JOURNAL_SIZE,
  MAX_LATENCY_MS,
  MAX_PETS_LIMIT,
  MAX_SESSION_TTL_SECONDS,
  MAX_SESSIONS_LIMIT,
} from './limits.js'
import type { SandboxOptions } from './sandbox-types.js'
import { petSchema } from './schemas.js'
import { STATE_FORMAT } from './store.js'
import { thousands } from './text.js'

export const DEFAULT_SEED = 42
export const DEFAULT_COUNT = 50
export const DEFAULT_JOURNAL_SIZE = 100

const intIn = (min: number, max: number) =>
  z.optional(z.number().check(z.int(), z.gte(min), z.lte(max)))
const optionsSchema = z.object({
  maxSessions: intIn(1, MAX_SESSIONS_LIMIT),
  sessionTtlSeconds: intIn(1, MAX_SESSION_TTL_SECONDS),
  seed: z.optional(z.number().check(z.int())),
  count: intIn(0, MAX_COUNT),
  journalSize: intIn(0, MAX_JOURNAL_SIZE),
  maxJournalBytes: intIn(0, MAX_JOURNAL_BYTES_LIMIT),
  maxPets: intIn(0, MAX_PETS_LIMIT),
  maxTotalPets: intIn(0, MAX_PETS_LIMIT),
  latency: z.optional(latencySchema),
})

/** Throws a SandboxError naming the first option out of its range. */
export function checkOptions(options: SandboxOptions): void {
  const checked = optionsSchema.safeParse(options)
  if (checked.success) return
  const issue = checked.error.issues[0]
  throw SandboxError.for(
    'INVALID_OPTION',
    'create the sandbox',
    // Only the first letter: the rule may name fields (minMs).
    `option ${String(issue?.path.join('.'))} ${issue?.message.replace(/^./, (first) => first.toLowerCase())}`,
    `See docs/options.md#options: seed is an integer, count 0 to ${thousands(MAX_COUNT)}, journalSize 0 to ${thousands(MAX_JOURNAL_SIZE)}, maxJournalBytes 0 to ${thousands(MAX_JOURNAL_BYTES_LIMIT)}, maxPets and maxTotalPets 0 to ${thousands(MAX_PETS_LIMIT)}, maxSessions 1 to ${thousands(MAX_SESSIONS_LIMIT)}, sessionTtlSeconds 1 to ${thousands(MAX_SESSION_TTL_SECONDS)}, latency 0 to ${thousands(MAX_LATENCY_MS)} ms or { minMs, maxMs }.`,
  )
}

const persistedStateSchema = z.object({
  format: z.literal(STATE_FORMAT),
  seed: z.number().check(z.int()),
  count: z.number().check(z.int()),
  // The same Pet schema the store validates with: a state file holds nothing else.
  pets: z.array(petSchema),
})
/** Your handlers must be msw request handlers (of msw 2 or 3: what getResponse runs). */
export function checkOverrides(
  handlers: readonly RequestHandler[],
  source: string,
): readonly RequestHandler[] {
  if (!Array.isArray(handlers)) {
    throw SandboxError.for(
      'INVALID_OPTION',
      `read ${source}`,
      `it is ${typeof handlers}, not an array of msw handlers`,
      'Pass an array such as [http.get(...)] (see docs/handlers.md).',
    )
  }
  handlers.forEach((handler, index) => {
    if (typeof (handler as { run?: unknown } | null)?.run !== 'function') {
      throw SandboxError.for(
        'INVALID_OPTION',
        `read ${source}`,
        `${source}[${index}] is not an msw request handler`,
        'Build each one with msw (http.get, http.post, graphql.query, ...); see docs/handlers.md.',
      )
    }
  })
  return [...handlers]
}

/** A persisted state, validated: the pets of the default data. */
export function parsePersistedState(
  state: unknown,
  source: string,
): z.infer<typeof persistedStateSchema> {
  const parsed = persistedStateSchema.safeParse(state)
  if (parsed.success) return parsed.data
  throw SandboxError.for(
    'INVALID_PERSISTED_STATE',
    `restore the state from ${source}`,
    'it is not a petstore-sandbox state file (format "petstore-sandbox/state@1")',
    'Point --persist at a new file, or delete this one to start from the seeded data.',
  )
}
