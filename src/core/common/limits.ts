/**
 * The sandbox's own limits, each defined once: the options, the scenario files and the
 * CLI flags check against these, and docs/options.md states them.
 * @see docs/options.md#options
 */

/** The most pets a sandbox (or a scenario's data) seeds. */
export const MAX_COUNT = 1_000_000

/**
 * The most pets a scenario defined at run time (PUT /__sandbox/scenarios/{name}, a session
 * import) seeds: any client may define one and replace it with a new seed, and seeding
 * 100,000 pets took the server a second, during which it answered nobody.
 */
export const MAX_DEFINED_COUNT = 10_000

/** The longest added latency, in milliseconds, of an option, a flag or a scenario. */
export const MAX_LATENCY_MS = 60_000

/** The most requests the journal keeps. */
export const MAX_JOURNAL_SIZE = 100_000

/**
 * The bytes the journals of all sessions together keep by default (option
 * `maxJournalBytes`, flag `--max-journal-bytes`): 32 MiB.
 */
export const DEFAULT_MAX_JOURNAL_BYTES = 32 * 1024 * 1024

/** The largest `maxJournalBytes`: 4 GiB (a server's heap is smaller than that by default). */
export const MAX_JOURNAL_BYTES_LIMIT = 4 * 1024 * 1024 * 1024

/**
 * The largest `maxSessions` (sessions are memory: 10,000 live ones hold about 14 MB of
 * heap, and a server serving them peaks near 250 MB of RSS; docs/performance.md).
 */
export const MAX_SESSIONS_LIMIT = 100_000

/** The longest session idle time, in seconds: 30 days. */
export const MAX_SESSION_TTL_SECONDS = 30 * 86_400

/**
 * The longest texts of a scenario, in characters: its `name` (a path segment, like a
 * session id), and its `description` and forced errors' `message` and `code`. A scenario
 * a session defines at run time is held in memory by every server it reaches.
 */
export const MAX_SCENARIO_NAME_LENGTH = 64
export const MAX_SCENARIO_TEXT_LENGTH = 1_000

/** The most plans a scenario's `rateLimits.plans` names (the fixtures have four). */
export const MAX_SCENARIO_PLANS = 50

/** The longest `name` of a pet, in characters (UTF-16 code units, as JSON counts them). */
export const MAX_NAME_LENGTH = 1_000

/** The most pets requests may create in one world (a dataset) by default: option `maxPets`. */
export const DEFAULT_MAX_PETS = 100_000

/** The most created pets across every world of a sandbox by default: option `maxTotalPets`. */
export const DEFAULT_MAX_TOTAL_PETS = 1_000_000

/** The largest `maxPets` or `maxTotalPets` an option or flag may set. */
export const MAX_PETS_LIMIT = 1_000_000_000

/**
 * The largest body of a control request that imports a session (`POST
 * /__sandbox/sessions` with `from`): 16 MiB, room for an export of 100,000 pets and a
 * full journal. Every other request keeps the adapter's limit (64 KiB by default).
 */
export const MAX_SESSION_IMPORT_BYTES = 16 * 1024 * 1024
