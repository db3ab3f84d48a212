import { expect, test } from 'vitest'
import type { JournalEntry } from '../core/coach/journal.js'
import { formatRequest } from './request-log.js'

const dropped: JournalEntry = {
  id: 7,
  at: '2027-01-01T00:00:00.000Z',
  method: 'GET',
  path: '/v1/pets',
  status: 0,
  durationMs: 0,
  scenario: 'flaky-network',
  key: 'sandbox-flaky-network-key',
  plan: 'free',
  operation: 'listPets',
  dropped: true,
}

test('a dropped request says so, not status 0', () => {
  const line = formatRequest(dropped, 'pretty', (_color, text) => text)
  expect(line).toMatch(
    /^\d\d:\d\d:\d\d #7 GET \/v1\/pets dropped \(no answer\) 0 ms sandbox-flaky-network-key \(free\) \[flaky-network\]$/,
  )
  expect(line).not.toMatch(/ 0 dropped/)
})

test('the JSON log keeps the mark and the status 0 of the journal', () => {
  expect(
    JSON.parse(formatRequest(dropped, 'json', (_color, text) => text)),
  ).toMatchObject({
    type: 'request',
    status: 0,
    dropped: true,
  })
})

test('the key column says "no valid key" for a 401 only, and a 410 says the endpoint was removed', () => {
  const { dropped: _dropped, key: _key, plan: _plan, ...answered } = dropped
  const plain = (entry: Partial<JournalEntry>) =>
    formatRequest(
      { ...answered, ...entry } as JournalEntry,
      'pretty',
      (_color, text) => text,
    )
  expect(plain({ status: 401, code: 'missing_api_key' })).toMatch(/ no valid key \[/)
  expect(plain({ status: 400, code: 'unknown_scenario' })).toMatch(/ key not checked \[/)
  expect(plain({ status: 200, key: 'sandbox-free-key', session: 'alice' })).toMatch(
    / sandbox-free-key \[flaky-network\] session alice$/,
  )
  expect(
    plain({
      status: 410,
      code: 'endpoint_removed',
      key: 'sandbox-free-key',
      deprecated: true,
    }),
  ).toMatch(
    /⚠ removed endpoint: GET \/v1\/pets\/\{petId\} was removed on 5 December 2030/,
  )
  expect(plain({ status: 200, key: 'sandbox-free-key', deprecated: true })).toMatch(
    /⚠ deprecated endpoint: GET \/v1\/pets\/\{petId\} is removed on 5 December 2030/,
  )
})
