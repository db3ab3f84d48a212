import type { ApiKeysFixture, Plan } from './fixtures.js'
import type { Scenario } from './scenarios.js'
import type { ApiErrorCode } from './api-errors.js'

export interface KnownKey {
  key: string
  planName: string
  plan: Plan
  expired: boolean
}

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

/** Indexes the keys of the fixtures for constant-time lookup. */
export function createKeyIndex(fixture: ApiKeysFixture): Map<string, KnownKey> {
  const index = new Map<string, KnownKey>()
  for (const entry of fixture.keys) {
    const plan = fixture.plans[entry.plan] as Plan
    index.set(entry.key, {
      key: entry.key,
      planName: entry.plan,
      plan,
      expired: entry.expired ?? false,
    })
  }
  return index
}

/**
 * Checks the `Authorization` header. Each way of getting it wrong has its own code and
 * a message that says how to get it right.
 */
export function authenticate(
  header: string | null,
  keys: Map<string, KnownKey>,
  scenario: Pick<Scenario, 'name' | 'auth'>,
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
    const scheme = header.trim().split(/\s+/, 1)[0] ?? ''
    const reason = !/^bearer$/i.test(scheme)
      ? `the header does not use the Bearer scheme (got "${scheme.slice(0, 20)}")`
      : header.trim().length === scheme.length
        ? 'the "Bearer" scheme is not followed by a token'
        : 'the token must be one word of printable ASCII after "Bearer " (no inner spaces, tabs or accented letters)'
    return {
      ok: false,
      code: 'malformed_authorization',
      message: `The Authorization header must be "Bearer <API_KEY>": ${reason}. ${example}`,
    }
  }
  const token = match[1] as string
  const key = keys.get(token)
  if (auth?.rejectAllKeys) {
    return {
      ok: false,
      code: 'invalid_api_key',
      message: `The API key is not valid (the scenario "${scenario.name}" rejects every key). Switch back with PUT /__sandbox/scenario {"name":"default"}, or drop the X-Sandbox-Scenario header if you sent one.`,
      ...(key ? { key } : {}),
    }
  }
  if (auth?.expireAllKeys || key?.expired) {
    return {
      ok: false,
      code: 'expired_api_key',
      message: auth?.expireAllKeys
        ? `The API key has expired (the scenario "${scenario.name}" treats every bearer token as expired). Switch back with PUT /__sandbox/scenario {"name":"default"}, or drop the X-Sandbox-Scenario header if you sent one.`
        : 'The API key has expired. Use a current key such as sandbox-free-key.',
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
