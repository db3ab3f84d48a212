import { describe, expect, test } from 'vitest'
import defaultApiKeys from '../../../fixtures/api-keys.json'
import { authenticate, createKeyIndex } from './auth.js'
import type { ApiKeysFixture } from '../data/fixtures.js'
import { journalHeaders } from '../coach/journal.js'

const keys = createKeyIndex(defaultApiKeys as ApiKeysFixture)
const scenario = { name: 'default' }
const SECRET = 'sk_live_51HxSECRETab0123456789'

describe('authenticate never repeats an Authorization value that is not a demo key', () => {
  test.each([
    [SECRET, 'malformed_authorization'],
    [`Basic ${SECRET}`, 'malformed_authorization'],
    [`Bearer:${SECRET}`, 'malformed_authorization'],
    [`Bearer ${SECRET.slice(0, 10)} ${SECRET.slice(10)}`, 'malformed_authorization'],
    [`Bearer ${SECRET}é`, 'malformed_authorization'],
    [`Bearer ${SECRET}`, 'invalid_api_key'],
  ])('%j: %s, and no part of it in the message', (header, code) => {
    const result = authenticate(header, keys, scenario)
    expect(result).toMatchObject({ ok: false, code })
    const message = result.ok ? '' : result.message
    expect(message).not.toMatch(/sk_live|SECRET|0123/)
    if (code === 'malformed_authorization')
      expect(message).toMatch(/^The Authorization header must be "Bearer <API_KEY>": /)
  })

  test('without "Bearer ", the value is not named, and the message says so', () => {
    const result = authenticate(SECRET, keys, scenario)
    expect(result.ok ? '' : result.message).toBe(
      'The Authorization header must be "Bearer <API_KEY>": the value does not start with "Bearer " (it is not repeated here, nor in the journal or the log: it may be a real key). Send "Authorization: Bearer sandbox-free-key" (demo keys: GET /__sandbox).',
    )
  })

  test('a demo key (public) is named, to show the fix; of a session key, only the demo key', () => {
    const bare = authenticate('sandbox-pro-key', keys, scenario)
    expect(bare.ok ? '' : bare.message).toBe(
      'The Authorization header must be "Bearer <API_KEY>": the demo key "sandbox-pro-key" is not sent after "Bearer ". Send "Authorization: Bearer sandbox-pro-key".',
    )
    const session = authenticate('Token sandbox-free-key.alice', keys, scenario)
    expect(session.ok ? '' : session.message).toContain(
      'the demo key "sandbox-free-key" is not sent after "Bearer "',
    )
    expect(session.ok ? '' : session.message).not.toContain('alice')
  })
})

test('the journal keeps no Authorization header, whatever it holds', () => {
  for (const value of [SECRET, `Bearer ${SECRET}`, 'Bearer sandbox-free-key']) {
    const kept = journalHeaders(
      new Headers({
        authorization: value,
        'content-type': 'application/json',
        'x-sandbox-session': 'alice',
      }),
    )
    expect(kept).toEqual({
      'content-type': 'application/json',
      'x-sandbox-session': 'alice',
    })
  }
})

describe('the way out a 401 names keeps the client in its session and its scenario source', () => {
  test('an expired key is told of a current one, in its session when it is in one', () => {
    const plain = authenticate('Bearer sandbox-expired-key', keys, scenario)
    expect(plain.ok ? '' : plain.message).toBe(
      'The API key has expired. Use a current key such as sandbox-free-key.',
    )
    const inSession = authenticate('Bearer sandbox-expired-key', keys, scenario, 'alice')
    expect(inSession.ok ? '' : inSession.message).toBe(
      'The API key has expired. Use a current key such as sandbox-free-key.alice.',
    )
  })

  test('a scenario that expires every key: left by the switch, or by another key when a key selects it', () => {
    const expiring = { name: 'expiring', auth: { expireAllKeys: true } }
    const switched = authenticate('Bearer sandbox-free-key', keys, expiring)
    expect(switched.ok ? '' : switched.message).toMatch(
      /; to leave it, switch back with PUT \/__sandbox\/scenario \{"name":"default"\}, or drop/,
    )
    // In a session, the switch must name it: without the header it switches the default one.
    const inSession = authenticate(
      'Bearer sandbox-free-key.alice',
      keys,
      expiring,
      'alice',
    )
    expect(inSession.ok ? '' : inSession.message).toMatch(
      /; to leave it, switch back with PUT \/__sandbox\/scenario \{"name":"default"\} sent with X-Sandbox-Session: alice, or drop/,
    )
    const keyed = createKeyIndex(defaultApiKeys as ApiKeysFixture, [
      { name: 'expiring', keys: { 'expiring-key': 'free' } },
    ])
    const selected = authenticate('Bearer expiring-key', keyed, expiring, 'bob')
    expect(selected.ok ? '' : selected.message).toMatch(
      /; the key expiring-key selects it: to leave it, send a key without a scenario, such as sandbox-free-key\.bob\.$/,
    )
  })
})
