import { expect, test } from 'vitest'
import type { JournalEntry } from '../core/journal.js'
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
