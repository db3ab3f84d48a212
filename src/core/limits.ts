/**
 * The sandbox's own limits, each defined once: the options, the scenario files and the
 * CLI flags check against these, and the README states them.
 * @see README.md#options
 */

/** The most pets a sandbox (or a scenario's data) seeds. */
export const MAX_COUNT = 1_000_000

/** The longest added latency, in milliseconds, of an option, a flag or a scenario. */
export const MAX_LATENCY_MS = 60_000

/** The most requests the journal keeps. */
export const MAX_JOURNAL_SIZE = 100_000

/** The largest `maxSessions` (sessions are memory: 10,000 live ones are about 100 MB). */
export const MAX_SESSIONS_LIMIT = 100_000

/** The longest session idle time, in seconds: 30 days. */
export const MAX_SESSION_TTL_SECONDS = 30 * 86_400
