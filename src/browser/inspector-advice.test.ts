import { expect, test } from 'vitest'
import type { JournalEntry } from '../core/coach/journal.js'
import { adviseOn } from './inspector-advice.js'

const entry = (code: string): JournalEntry => ({
  id: 1,
  at: '2027-01-01T00:00:00.000Z',
  method: 'GET',
  path: '/v1/pets',
  status: 503,
  durationMs: 1,
  scenario: 'flaky',
  code,
})

test('a code a scenario forces is looked up as an own name: "constructor" has no advice', () => {
  expect(adviseOn(entry('constructor'))).toEqual([])
  expect(adviseOn(entry('missing_api_key'))[0]).toMatch(/^Missing key/)
})

test('a dropped request gets the retry advice, whatever its status', () => {
  const dropped: JournalEntry = { ...entry('x'), status: 0, dropped: true }
  delete dropped.code
  expect(adviseOn(dropped)).toEqual([
    expect.stringMatching(
      /^Dropped: the connection closed with no answer.*Retry after a short wait/,
    ),
  ])
})
