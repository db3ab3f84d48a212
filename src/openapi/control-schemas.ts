import * as z from 'zod'
import { SESSION_FORMAT } from '../core/coach/session-export.js'
import { FINDING_CODES } from '../core/coach/report-card.js'
import { petSchema } from '../core/common/schemas.js'

// The bodies of the control API (/__sandbox), as the control document describes them:
// zod schemas that component-schemas.ts names as components. The API's own (Pet, Error)
// are the core's (src/core/common/schemas.ts).

const dateTime = z
  .string()
  .meta({ format: 'date-time', examples: ['2026-11-23T13:35:00.000Z'] })
const count = z.number().int().min(0)
const scenarioSummary = z.object({
  name: z.string().meta({ examples: ['rate-limited'] }),
  description: z.string(),
})

/** What `GET /__sandbox/clock` and `POST /__sandbox/clock` answer (the core's ClockState). */
export const clockStateSchema = z
  .object({
    now: dateTime.meta({ description: 'The sandbox time.' }),
    frozen: z
      .boolean()
      .meta({ description: 'The clock stands still until set or advanced.' }),
  })
  .meta({ description: 'The sandbox clock.' })

/** What the scenario endpoints answer. */
export const scenarioStateSchema = z
  .object({
    name: z.string().meta({ description: 'The active scenario.', examples: ['default'] }),
    description: z.string(),
    startup: z.string().meta({ description: 'The scenario the sandbox started with.' }),
  })
  .meta({ description: 'The active scenario of the sandbox.' })

/** What `GET /__sandbox` and `POST /__sandbox/reset` answer (the core's SandboxState). */
export const sandboxStateSchema = z
  .object({
    scenario: scenarioSummary.meta({ description: 'The active scenario.' }),
    session: z.string().meta({
      description: 'The session this state is of: default, or the one the request named.',
      examples: ['default'],
    }),
    startupScenario: z.string(),
    scenarios: z.array(scenarioSummary).meta({ description: 'Every loaded scenario.' }),
    seed: z.number().int(),
    count: count.meta({ description: 'How many pets were seeded.' }),
    counts: z.object({ pets: count }),
    keys: z
      .array(
        z.object({
          key: z.string().meta({ examples: ['sandbox-free-key'] }),
          plan: z.string().meta({ examples: ['free'] }),
          perMinute: count,
          perDay: count,
          expired: z.boolean(),
          scenario: z
            .string()
            .optional()
            .meta({ description: 'The scenario this key selects (a scenario key).' }),
        }),
      )
      .meta({ description: 'The demo API keys and their plans.' }),
    clock: clockStateSchema,
    baseUrls: z
      .array(z.string())
      .meta({ description: 'The base addresses the API answers on.' }),
  })
  .meta({ description: 'The state of the sandbox.' })

/** One request of the journal (the core's JournalEntry). */
export const journalEntrySchema = z
  .object({
    id: z.number().int(),
    at: dateTime.meta({ description: 'Sandbox-clock time of the request.' }),
    method: z.string(),
    path: z.string().meta({ description: 'Path and query as sent.' }),
    status: z.number().int().min(0).meta({
      description: 'The HTTP status of the answer; 0 for a dropped request (no answer).',
    }),
    durationMs: z.number().min(0),
    scenario: z.string(),
    key: z
      .string()
      .optional()
      .meta({ description: 'The demo key used, when it is a known key.' }),
    plan: z.string().optional(),
    operation: z.string().optional(),
    code: z.string().optional(),
    message: z
      .string()
      .optional()
      .meta({ description: "The Error body's message, for an error." }),
    rateLimit: z
      .object({
        limit: z.number().int().min(0),
        remaining: z.number().int().min(0),
        reset: z
          .number()
          .int()
          .meta({ description: 'Unix seconds at which the reported window resets.' }),
        retryAfter: z.number().int().min(0).optional(),
      })
      .optional()
      .meta({
        description:
          'The rate-limit state after the request, as its X-RateLimit-* and Retry-After headers said.',
      }),
    headers: z.record(z.string(), z.string()).optional().meta({
      description:
        'The request headers Content-Type and X-Sandbox-* (never X-Sandbox-Control-Token), each value at most 256 characters.',
    }),
    body: z.string().optional().meta({
      description:
        'The request body as text, its first 4 KiB. A journal keeps 64 KiB of bodies in all: older entries lose theirs first. Response bodies are never kept.',
    }),
    bodyTruncated: z.literal(true).optional().meta({
      description:
        'The body was longer than `body` holds (or, without `body`, was dropped to keep the journal small).',
    }),
    deprecated: z
      .literal(true)
      .optional()
      .meta({ description: 'The request used the deprecated getPet endpoint.' }),
    ignoredRetryAfter: z.literal(true).optional().meta({
      description:
        "The request came while an earlier 429's Retry-After was still running.",
    }),
    override: z.literal(true).optional().meta({
      description:
        'One of your own msw handlers (option `handlers`, `--handlers`) answered it, not the sandbox.',
    }),
    dropped: z.literal(true).optional().meta({
      description:
        "The scenario's `faults` dropped it: the client got no answer (a network error, a closed socket), `status` is 0 and the API never handled it.",
    }),
    session: z.string().optional().meta({
      description: 'The session it belongs to, when not the default one.',
    }),
  })
  .meta({
    description:
      'One request as the journal saw it: the request headers and body it keeps, no response body.',
  })

/** What `GET /__sandbox/requests` answers. */
export const journalSchema = z.object({
  requests: z.array(journalEntrySchema),
  lastId: z.number().int().min(0).meta({
    description:
      "The id of the newest request the session's journal has seen (0 for none). Lower than a poll's `after`: the journal started again (a session that expired), so poll without `after`.",
  }),
})

/** A live session (`GET /__sandbox/sessions`). */
export const sessionInfoSchema = z.object({
  id: z.string().meta({ examples: ['worker-1'] }),
  createdAt: dateTime.meta({
    description: 'Real time, never a sandbox clock (sessions idle in real time).',
  }),
  lastUsedAt: dateTime.meta({
    description:
      'Real time, never a sandbox clock: the session expires once idle past the TTL from here.',
  }),
  pets: count.meta({ description: 'How many pets the session sees.' }),
})

/** What `GET /__sandbox/sessions` answers. */
export const sessionListSchema = z.object({ sessions: z.array(sessionInfoSchema) })

/** A session as `GET /__sandbox/export` gives it and `POST /__sandbox/sessions` takes it (`from`). */
export const sessionExportSchema = z
  .object({
    format: z.literal(SESSION_FORMAT),
    session: z.string().meta({ description: 'The session it was exported from.' }),
    seed: z.number().int(),
    count: count.meta({ description: 'The seed and count of the sandbox it came from.' }),
    scenario: z.string().meta({ description: 'The scenario the session had selected.' }),
    scenarios: z.array(z.record(z.string(), z.unknown())).meta({
      description:
        'The scenarios defined at run time for the session, as defined (the schema of scenario files, without keys).',
    }),
    clock: clockStateSchema,
    pets: z.array(petSchema).meta({ description: "The session's pets, in id order." }),
    journal: z.array(journalEntrySchema).optional().meta({
      description:
        'The journal, oldest first. Always in an export; an import does not restore it, and takes an export without it.',
    }),
    journalComplete: z.boolean().optional().meta({
      description: 'False when the journal had dropped requests or cut bodies.',
    }),
  })
  .meta({
    description:
      'A session carried between sandboxes: pets, scenario (with those defined at run time) and clock; the journal to read. Rate-limit windows and bans are not carried. See docs/sessions-carry.md.',
  })

/** What `GET /__sandbox/requests.har` answers: HAR 1.2, described only at its top. */
export const harSchema = z
  .object({
    log: z.object({
      version: z.literal('1.2'),
      creator: z.object({
        name: z.literal('petstore-sandbox'),
        version: z.string(),
      }),
      entries: z.array(z.record(z.string(), z.unknown())).meta({
        description:
          "One entry a journalled request, oldest first: the request as the journal kept it, the status, rate-limit headers and Error body of its answer; `_sandbox` holds the journal entry's own fields.",
      }),
      comment: z.string().optional(),
    }),
  })
  .meta({
    description:
      "An HTTP Archive (HAR 1.2, http://www.softwareishard.com/blog/har-12-spec/) of the session's journal: browser dev tools import it.",
  })

/** The optional body of `POST /__sandbox/sessions`. */
export const sessionRequestSchema = z
  .strictObject({
    id: z
      .string()
      .regex(/^[A-Za-z0-9_-]{1,64}$/)
      .optional()
      .meta({ description: 'The session id; generated when left out.' }),
    scenario: z
      .string()
      .optional()
      .meta({ description: "The new session's scenario switch (a loaded scenario)." }),
    from: sessionExportSchema.optional().meta({
      description:
        'A session export (GET /__sandbox/export): the session is made from it (201), never an existing one (409 session_exists). Not with scenario.',
    }),
  })
  .meta({ examples: [{ id: 'worker-1' }] })

/** What `POST /__sandbox/sessions` answers: the session and a key per plan. */
export const sessionKeysSchema = z.object({
  id: z.string().meta({ examples: ['worker-1'] }),
  keys: z.record(z.string(), z.string()).meta({
    description: 'A session key per plan: the demo key, a dot, the session id.',
    examples: [{ free: 'sandbox-free-key.worker-1', pro: 'sandbox-pro-key.worker-1' }],
  }),
})

/** The body of `PUT /__sandbox/scenario`. */
export const scenarioSwitchSchema = z
  .object({
    name: z
      .string()
      .meta({ description: 'A loaded scenario.', examples: ['rate-limited'] }),
  })
  .meta({ examples: [{ name: 'rate-limited' }] })

/** The body of `POST /__sandbox/clock`: at least one field; applied as reset, freeze, now, advanceSeconds. */
export const clockChangeSchema = z
  .strictObject({
    advanceSeconds: z
      .number()
      .optional()
      .meta({ description: 'Seconds to move the clock by (negative goes back).' }),
    now: dateTime.optional().meta({ description: 'Set the clock to this instant.' }),
    freeze: z
      .boolean()
      .optional()
      .meta({ description: 'Stop (true) or restart (false) the clock.' }),
    reset: z.literal(true).optional().meta({ description: 'Back to the startup time.' }),
  })
  .meta({
    description:
      'At least one field. Fields apply in the order reset, freeze, now, advanceSeconds, all or none.',
    examples: [{ advanceSeconds: 60 }, { now: '2031-01-01T00:00:00Z', freeze: true }],
  })

/** What `GET /__sandbox/report` answers (the core's Report). */
export const reportSchema = z
  .object({
    session: z.string().meta({ examples: ['default'] }),
    since: dateTime.meta({
      description: 'Sandbox time the session started or was last reset.',
    }),
    requests: count.meta({ description: 'Requests of the session since then.' }),
    clockFrozen: z.literal(true).optional().meta({
      description:
        'Present while the clock stands still: backoff and duplicate findings are not computed.',
    }),
    findings: z
      .array(
        z.object({
          code: z.enum(FINDING_CODES),
          severity: z.enum(['error', 'warning', 'info']),
          count: count.meta({ description: 'How many requests showed it.' }),
          message: z
            .string()
            .meta({ description: 'What happened and why it matters in production.' }),
          fix: z.string().meta({ description: 'What to change in the client.' }),
          requestIds: z.array(count).max(5).meta({
            description: 'The 5 most recent requests that showed it, newest first.',
          }),
        }),
      )
      .meta({
        description: 'Errors first, then warnings, then info; by code within each.',
      }),
  })
  .meta({ description: 'The report card of a session (docs/report-card.md).' })
