import type { ApiKeysFixture, KnownKey, Plan } from '../data/fixtures.js'
import type { Scenario } from '../scenarios/scenarios.js'
import type { ApiErrorCode } from '../http/api-errors.js'
import { SandboxError } from '../common/errors.js'
import { hasOwnName, ownValue } from '../common/own-names.js'
import { scenarioSource } from '../scenarios/scenarios.js'

export type { KnownKey } from '../data/fixtures.js'

export type AuthResult =
  | { ok: true; key: KnownKey }
  | {
      ok: false
      code: Extract<
        ApiErrorCode,
        | 'missing_api_key'
        | 'malformed_authorization'
        | 'invalid_api_key'
        | 'expired_api_key'
      >
      message: string
      /** The key, when the token names a known one (its plan's headers are reported). */
      key?: KnownKey
    }

const BEARER = /^Bearer +([\x21-\x7e]+) *$/i

/**
 * Indexes the demo keys for constant-time lookup: the fixtures' keys, then the keys the
 * scenarios declare (each selecting its scenario, on a plan of the fixtures).
 */
export function createKeyIndex(
  fixture: ApiKeysFixture,
  scenarios: readonly Pick<Scenario, 'name' | 'keys'>[] = [],
  /** Scenarios whose keys take the first plan when theirs is missing (the built-in ones, under fixtures of your own). */
  lenient: (scenario: Pick<Scenario, 'name' | 'keys'>) => boolean = () => false,
): Map<string, KnownKey> {
  // Own names only, here and below: a plan named "constructor" must not find Object.
  const fallback = hasOwnName(fixture.plans, 'free')
    ? 'free'
    : Object.keys(fixture.plans)[0]
  const index = new Map<string, KnownKey>()
  for (const entry of fixture.keys) {
    const plan = ownValue(fixture.plans, entry.plan) as Plan
    index.set(entry.key, {
      key: entry.key,
      planName: entry.plan,
      plan,
      expired: entry.expired ?? false,
    })
  }
  for (const scenario of scenarios) {
    for (const [key, named] of Object.entries(scenario.keys ?? {})) {
      const planName =
        hasOwnName(fixture.plans, named) || !lenient(scenario)
          ? named
          : (fallback ?? named)
      const plan = ownValue(fixture.plans, planName)
      const taken = index.get(key)
      if (!plan || (taken && taken.scenario !== scenario.name)) {
        throw SandboxError.for(
          'INVALID_SCENARIO',
          `load the keys of the scenario "${scenario.name}"${sourceNote(scenario)}`,
          plan
            ? `the key "${key}" is already ${taken?.scenario ? `the key of the scenario "${taken.scenario}"` : 'a key of the fixtures'}`
            : `keys.${key} names the plan "${planName}", which the fixtures do not have (${Object.keys(fixture.plans).join(', ')})`,
          plan
            ? 'Give every scenario key a name of its own.'
            : 'Name one of those plans, or add the plan to the fixtures.',
        )
      }
      index.set(key, { key, planName, plan, expired: false, scenario: scenario.name })
    }
  }
  return index
}

/** The known key a bearer token names, without judging it (for the scenario it selects). */
export function peekKey(
  header: string | null,
  keys: Map<string, KnownKey>,
): KnownKey | undefined {
  const token = header === null ? undefined : BEARER.exec(header)?.[1]
  return token === undefined ? undefined : keys.get(token)
}

/**
 * Checks the `Authorization` header. Each way of getting it wrong has its own code and
 * a message that says how to get it right.
 */
export function authenticate(
  header: string | null,
  keys: Map<string, KnownKey>,
  scenario: Pick<Scenario, 'name' | 'auth'>,
  /** The session the request is in, to name a key that stays in it. */
  session?: string,
): AuthResult {
  const { auth } = scenario
  const example =
    'Send "Authorization: Bearer sandbox-free-key" (demo keys: GET /__sandbox).'
  if (header === null || header.trim() === '') {
    return {
      ok: false,
      code: 'missing_api_key',
      message: `No API key was sent. ${example}`,
    }
  }
  const match = BEARER.exec(header)
  if (!match) {
    // Nothing of the value is repeated (answer, journal, log): a real key pasted without
    // "Bearer " would leak. Only a demo key, which is public, is named, to show the fix
    // (of a session key, only its demo key part).
    const words = header.trim().split(/\s+/)
    const scheme = words[0] ?? ''
    const demo = words.map((word) => demoKeyOf(word, keys)).find(Boolean)
    const reason = !/^bearer$/i.test(scheme)
      ? demo
        ? `the demo key "${demo}" is not sent after "Bearer "`
        : 'the value does not start with "Bearer " (it is not repeated here, nor in the journal or the log: it may be a real key)'
      : words.length === 1
        ? 'the "Bearer" scheme is not followed by a token'
        : 'the token must be one word of printable ASCII after "Bearer " (no inner spaces, tabs or accented letters)'
    return {
      ok: false,
      code: 'malformed_authorization',
      message: `The Authorization header must be "Bearer <API_KEY>": ${reason}. ${demo ? `Send "Authorization: Bearer ${demo}".` : example}`,
    }
  }
  const token = match[1] as string
  const key = keys.get(token)
  if (auth?.rejectAllKeys) {
    return {
      ok: false,
      code: 'invalid_api_key',
      message: `The API key is not valid (the scenario "${scenario.name}" rejects every key); ${howToLeave(scenario, key, session)}.`,
      ...(key ? { key } : {}),
    }
  }
  if (auth?.expireAllKeys || key?.expired) {
    return {
      ok: false,
      code: 'expired_api_key',
      message: auth?.expireAllKeys
        ? `The API key has expired (the scenario "${scenario.name}" treats every bearer token as expired); ${howToLeave(scenario, key, session)}.`
        : `The API key has expired. Use a current key such as ${freeKeyIn(session)}.`,
      ...(key ? { key } : {}),
    }
  }
  if (!key) {
    return {
      ok: false,
      code: 'invalid_api_key',
      message: `The API key is not valid. ${example}`,
    }
  }
  return { ok: true, key }
}

/**
 * How a client leaves the scenario that answered it, for messages (lower case, no full
 * stop). A scenario key's scenario outranks the session's switch, so only another key
 * leaves it, in the same session (`session`, the world's id) when the request is in one.
 */
export function howToLeave(
  scenario: Pick<Scenario, 'name'>,
  key: Pick<KnownKey, 'key' | 'scenario'> | undefined,
  session: string | undefined,
): string {
  if (key?.scenario !== scenario.name) {
    // Control calls act on the session they name: without it, the default session.
    const where = session === undefined ? '' : ` sent with X-Sandbox-Session: ${session}`
    return `to leave it, switch back with PUT /__sandbox/scenario {"name":"default"}${where}, or drop the X-Sandbox-Scenario header if you sent one`
  }
  return `the key ${key.key} selects it: to leave it, send a key without a scenario, such as ${freeKeyIn(session)}`
}

/** The Free demo key, in `session` when there is one (`sandbox-free-key.alice`). */
function freeKeyIn(session: string | undefined): string {
  return session === undefined ? 'sandbox-free-key' : `sandbox-free-key.${session}`
}

/** The known key a word is, or starts (`sandbox-free-key.alice`): public, so it may be named. */
function demoKeyOf(word: string, keys: Map<string, KnownKey>): string | undefined {
  if (keys.has(word)) return word
  const dot = word.indexOf('.')
  const key = dot > 0 ? word.slice(0, dot) : undefined
  return key !== undefined && keys.has(key) ? key : undefined
}

/** Where a scenario came from (its file), for messages: " (./my-scenario.json)". */
function sourceNote(scenario: object): string {
  const source = scenarioSource(scenario)
  return source === undefined ? '' : ` (${source})`
}
