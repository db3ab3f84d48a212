import type { InferredOptionType, Options } from 'yargs'
import { normalizeAllowedHost, normalizeOrigin } from '../core/http/request-trust.js'
import { isLatency, type Latency } from '../core/scenarios/latency.js'
import {
  DEFAULT_MAX_JOURNAL_BYTES,
  DEFAULT_MAX_PETS,
  DEFAULT_MAX_TOTAL_PETS,
  MAX_COUNT,
  MAX_JOURNAL_BYTES_LIMIT,
  MAX_LATENCY_MS,
  MAX_PETS_LIMIT,
  MAX_SESSION_TTL_SECONDS,
  MAX_SESSIONS_LIMIT,
} from '../core/common/limits.js'

/** The environment variable the control token is read from when --control-token is not given. */
export const CONTROL_TOKEN_ENV = 'PETSTORE_SANDBOX_CONTROL_TOKEN'

/**
 * A yargs option. One that takes a value is read as text (`type: 'string'`) and turned
 * into its value by `coerce`, which throws the rule the text breaks ("a port number from
 * 0 to 65535"); `example` (else `default`) shows a value in "--seed needs a value, e.g.
 * --seed 42".
 *
 * Why not `type: 'number'`: yargs turns `abc` into NaN (the message could not show what
 * was typed), an empty value into 0 (`--port=` would pick a random port), `0x10` into 16,
 * and `--port` with no value into the default.
 */
export type Flag = Options & { example?: string }

/**
 * The options of the server command, each declared once: yargs reads them for `--help`,
 * parsing and the checks, `ServeFlags` is their type, and a misspelt option is compared
 * with their names.
 */
export const SERVE_OPTIONS = defineFlags({
  port: {
    alias: 'p',
    type: 'string',
    default: '4010',
    describe: 'Port to listen on (0 picks a free one)',
    coerce: integer(0, 65_535, 'a port number from 0 to 65535 (0 picks a free one)'),
  },
  host: {
    type: 'string',
    default: '127.0.0.1',
    describe: 'Address to listen on (0.0.0.0 for every interface)',
  },
  seed: {
    type: 'string',
    example: '42',
    describe: 'Faker seed: the same seed gives the same pets (default 42)',
    coerce: integer(
      Number.MIN_SAFE_INTEGER,
      Number.MAX_SAFE_INTEGER,
      'an integer such as 42',
    ),
  },
  count: {
    type: 'string',
    example: '50',
    describe: 'How many pets to seed (default 50)',
    coerce: integer(0, MAX_COUNT, `a number of pets from 0 to ${MAX_COUNT}`),
  },
  scenario: {
    alias: 's',
    type: 'string',
    example: 'rate-limited',
    describe:
      'Startup scenario: a name (see `scenarios`) or a path to a scenario JSON file',
  },
  fixtures: {
    type: 'string',
    example: './fixtures',
    describe:
      'Fixtures JSON file, or a folder with api-keys.json, categories.json, pets.json',
  },
  latency: {
    type: 'string',
    example: '250',
    describe: 'Delay every /v1 response: milliseconds (250) or a range (100-500)',
    coerce: latency,
  },
  handlers: {
    type: 'string',
    example: './mocks/overrides.js',
    describe:
      'Your own msw handlers (an ES module exporting an array), answered before the sandbox',
  },
  persist: {
    type: 'string',
    example: '.sandbox-state.json',
    describe: 'Keep created pets in this JSON file across restarts',
  },
  load: {
    type: 'string',
    example: './session.json',
    describe:
      'Start with this session export (GET /__sandbox/export) as the default session: its pets, scenario and clock',
  },
  'max-pets': pets(
    DEFAULT_MAX_PETS,
    'Most pets requests may create in one world (then 507)',
  ),
  'max-total-pets': pets(DEFAULT_MAX_TOTAL_PETS, 'Most created pets across all worlds'),
  'max-journal-bytes': {
    type: 'string',
    example: String(DEFAULT_MAX_JOURNAL_BYTES),
    describe: `Bytes the request journals of all sessions keep together; the oldest go first, each session keeps its last 10 (default ${DEFAULT_MAX_JOURNAL_BYTES}, 32 MiB)`,
    coerce: integer(
      0,
      MAX_JOURNAL_BYTES_LIMIT,
      `a number of bytes from 0 to ${MAX_JOURNAL_BYTES_LIMIT}`,
    ),
  },
  watch: {
    alias: 'w',
    type: 'boolean',
    default: false,
    describe: 'Reload the --scenario file, --fixtures and --handlers when they change',
  },
  quiet: {
    alias: 'q',
    type: 'boolean',
    default: false,
    describe: 'No banner and no request log, only the URL and errors',
  },
  'log-format': {
    type: 'string',
    default: 'pretty',
    choices: ['pretty', 'json'],
    describe: 'Request log: pretty or json (one JSON object a line)',
  },
  'max-sessions': {
    type: 'string',
    example: '1000',
    describe:
      'At most this many live sessions; the least recently used goes first (default 1000)',
    coerce: integer(
      1,
      MAX_SESSIONS_LIMIT,
      `a number of sessions from 1 to ${MAX_SESSIONS_LIMIT}`,
    ),
  },
  'session-ttl': {
    type: 'string',
    example: '3600',
    describe:
      'Seconds without a request (real time, not the sandbox clock) after which a session expires (default 3600)',
    coerce: integer(
      1,
      MAX_SESSION_TTL_SECONDS,
      `a number of seconds from 1 to ${MAX_SESSION_TTL_SECONDS}`,
    ),
  },
  'cors-origin': {
    type: 'array',
    string: true,
    example: 'https://app.example.com',
    describe: 'Also let pages of this origin use the control API /__sandbox (repeatable)',
    coerce: list(
      'cors-origin',
      'https://app.example.com',
      normalizeOrigin,
      'an origin such as https://app.example.com (scheme, host, optional port, no path)',
    ),
  },
  'allowed-host': {
    type: 'array',
    string: true,
    example: 'my-box.local',
    describe:
      'Also answer this Host name when bound to loopback; .example.com for subdomains too (repeatable)',
    coerce: list(
      'allowed-host',
      'my-box.local',
      normalizeAllowedHost,
      'a host name such as my-box.local, or .example.com for it and its subdomains',
    ),
  },
  'control-token': {
    type: 'string',
    example: 'my-secret-token',
    describe: `Token the control API requires (X-Sandbox-Control-Token) on any bind; "off" for none. Default: $${CONTROL_TOKEN_ENV}, else one generated when --host is not loopback`,
    coerce: (text: string) => {
      if (/[^\x21-\x7e]/.test(text)) throw new Error('visible ASCII characters')
      return text
    },
  },
})

/** The options of `petstore-sandbox scenarios`. */
export const SCENARIOS_OPTIONS = defineFlags({
  scenario: {
    alias: 's',
    type: 'string',
    example: './my-scenario.json',
    describe: 'Also list the scenario in this file',
  },
})

/** The environment variable `petstore-sandbox check` reads the key from when --key is not given. */
export const CHECK_KEY_ENV = 'PETSTORE_SANDBOX_CHECK_KEY'

/** The options of `petstore-sandbox check <base-url>`. */
export const CHECK_OPTIONS = defineFlags({
  key: {
    type: 'string',
    example: '"$PETSTORE_SANDBOX_CHECK_KEY"',
    describe: `The API key to check with (else from ${CHECK_KEY_ENV}); never printed in full`,
  },
  writes: {
    type: 'boolean',
    describe:
      'Also create a pet (named "petstore-sandbox check <time>") and read it back',
  },
  'rate-limits': {
    type: 'boolean',
    describe:
      'Also spend a rate-limit window (only when X-RateLimit-Remaining is at most 20): the 429, Retry-After, recovery',
  },
  pace: {
    type: 'string',
    example: '500',
    describe:
      "Milliseconds between requests, instead of pacing by the server's X-RateLimit-* headers",
    coerce: integer(0, 600_000, 'milliseconds from 0 to 600000'),
  },
  timeout: {
    type: 'string',
    default: '60',
    describe: "The whole run's time budget in seconds",
    coerce: integer(1, 3_600, 'seconds from 1 to 3600'),
  },
  json: {
    type: 'boolean',
    describe: 'Print the report as JSON instead of lines',
  },
  junit: {
    type: 'string',
    example: 'check-results.xml',
    describe: 'Also write the results as JUnit XML to this file',
  },
})

type CamelCase<Name extends string> = Name extends `${infer Head}-${infer Tail}`
  ? `${Head}${Capitalize<CamelCase<Tail>>}`
  : Name

/** The flags of the server command, parsed and checked: what yargs' `coerce` returned. */
export type ServeFlags = {
  [Name in keyof typeof SERVE_OPTIONS as CamelCase<Name & string>]: InferredOptionType<
    (typeof SERVE_OPTIONS)[Name]
  >
}

export type LogFormat = ServeFlags['logFormat']

/** "--<flag> needs a value, e.g. --<flag> <example>", for a flag given without one. */
export function needsValue(name: string, flag: Flag | undefined): string {
  const example = flag?.example ?? flag?.default
  return `--${name} needs a value${example === undefined ? '' : `, e.g. --${name} ${String(example)}`}`
}

/**
 * Gives every option that takes a value the checks all of them share: a value follows it
 * (`requiresArg`: without it yargs would take the default for a bare `--port`), given
 * once, not empty, one of its `choices` if it has some (yargs' own choices message is
 * several lines). A rule its own `coerce` throws becomes "--<flag> must be <rule>, got
 * <value>". yargs wraps whatever `coerce` throws into its own failure, which the CLI
 * prints as one line with exit code 2.
 */
function defineFlags<const T extends Record<string, Flag>>(flags: T): T {
  const options: Record<string, Flag> = {}
  for (const [name, flag] of Object.entries(flags)) {
    // yargs reads the fields it knows; `example` stays for needsValue.
    const option: Flag = { ...flag }
    options[name] = option
    if (option.type !== 'string') continue
    option.requiresArg = true
    const { choices } = option
    const parse: (text: string) => unknown =
      option.coerce ??
      (choices
        ? (text) => {
            if (!choices.includes(text)) throw new Error(choices.join(' or '))
            return text
          }
        : (text) => text)
    option.coerce = (value: unknown) => {
      if (Array.isArray(value)) {
        throw new Error(
          `--${name} was given ${value.length === 2 ? 'twice' : `${value.length} times`} (${value.join(', ')}); give it once`,
        )
      }
      const text = String(value)
      if (text.trim() === '') throw new Error(needsValue(name, flag))
      try {
        return parse(text)
      } catch (error) {
        throw new Error(
          `--${name} must be ${(error as Error).message}, got ${JSON.stringify(text)}`,
        )
      }
    }
  }
  return options as T
}

/**
 * A repeatable flag's values, each checked: yargs gives `[]` for a bare flag, which
 * needs a value like any other.
 */
function list(
  name: string,
  example: string,
  normalize: (text: string) => string | undefined,
  rule: string,
) {
  return (values: unknown): string[] => {
    const texts = (Array.isArray(values) ? values : [values]).map(String)
    if (texts.length === 0 || texts.some((text) => text.trim() === ''))
      throw new Error(needsValue(name, { example }))
    for (const text of texts) {
      if (normalize(text) === undefined)
        throw new Error(`--${name} must be ${rule}, got ${JSON.stringify(text)}`)
    }
    return texts
  }
}

function integer(min: number, max: number, rule: string) {
  return (text: string): number => {
    const number = /^-?\d+$/.test(text.trim()) ? Number(text) : Number.NaN
    if (!Number.isSafeInteger(number) || number < min || number > max)
      throw new Error(rule)
    return number
  }
}

/** A limit of created pets: `--max-pets`, `--max-total-pets`. */
function pets(fallback: number, describe: string) {
  return {
    type: 'string',
    example: String(fallback),
    describe: `${describe} (default ${fallback})`,
    coerce: integer(0, MAX_PETS_LIMIT, `a number of pets from 0 to ${MAX_PETS_LIMIT}`),
  } as const satisfies Flag
}

function latency(text: string): Latency {
  const match = /^(\d+)(?:-(\d+))?$/.exec(text)
  const minMs = Number(match?.[1])
  const maxMs = match?.[2] === undefined ? minMs : Number(match[2])
  const value = match?.[2] === undefined ? minMs : { minMs, maxMs }
  if (!isLatency(value)) {
    throw new Error(
      `milliseconds (250) or a range (100-500), each 0 to ${MAX_LATENCY_MS}`,
    )
  }
  return value
}
