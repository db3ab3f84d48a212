import { expect, test } from 'vitest'
import {
  Journal,
  JOURNAL_BODY_BUDGET,
  journalHeaders,
  type JournalEntry,
} from './journal.js'

const request = (path: string, body?: string): Omit<JournalEntry, 'id'> => ({
  at: '2027-01-01T00:00:00.000Z',
  method: body === undefined ? 'GET' : 'POST',
  path,
  status: 200,
  durationMs: 1,
  scenario: 'default',
  ...(body === undefined ? {} : { body }),
})

test('keeps the most recent entries, newest first, and counts on across clear()', () => {
  const journal = new Journal(3)
  expect(journal.recent()).toEqual([])
  expect(journal.lastId).toBe(0)
  for (const path of ['/a', '/b', '/c', '/d']) journal.add(request(path))
  expect(journal.recent().map((entry) => [entry.id, entry.path])).toEqual([
    [4, '/d'],
    [3, '/c'],
    [2, '/b'],
  ])
  expect(journal.recent(2).map((entry) => entry.id)).toEqual([4, 3])
  expect(journal.recent(10, 2).map((entry) => entry.id)).toEqual([4, 3])
  expect(journal.recent(10, 4)).toEqual([])
  journal.clear()
  expect(journal.recent()).toEqual([])
  journal.add(request('/e'))
  expect(journal.recent().map((entry) => entry.id)).toEqual([5])
  expect(journal.lastId).toBe(5)
})

test('after many drops (its dropped places cut off now and then) it still holds the last entries, found by id', () => {
  for (const size of [1, 10, 100]) {
    const journal = new Journal(size)
    for (let index = 1; index <= 1000; index++) {
      journal.add({ ...request(`/${index}`), id: index * 2 })
      const kept = Math.min(index, size)
      expect(journal.count).toBe(kept)
      const newest = journal.recent(1)[0]
      expect(newest?.id).toBe(index * 2)
      const oldest = journal.recent()[kept - 1]
      expect(oldest?.id).toBe((index - kept + 1) * 2)
      expect(journal.find((index - kept + 1) * 2)).toBe(oldest)
      expect(journal.find((index - kept) * 2)).toBeUndefined()
      expect(journal.find(index * 2 - 1)).toBeUndefined()
    }
    const ids = journal.recent(size, 1990).map((entry) => entry.id)
    expect(ids).toEqual([2000, 1998, 1996, 1994, 1992].slice(0, size))
  }
})

test('over its body budget, the oldest entries lose their bodies first', () => {
  const journal = new Journal(100)
  const body = 'x'.repeat(JOURNAL_BODY_BUDGET / 4)
  for (let index = 0; index < 6; index++) journal.add(request(`/${index}`, body))
  const kept = journal.recent().reverse()
  expect(kept.map((entry) => entry.body !== undefined)).toEqual([
    false,
    false,
    true,
    true,
    true,
    true,
  ])
  expect(kept[0]?.bodyTruncated).toBe(true)
  expect(kept[2]?.bodyTruncated).toBeUndefined()
})

test('an entry that leaves the journal gives its body back to the budget', () => {
  const journal = new Journal(2)
  const body = 'x'.repeat(JOURNAL_BODY_BUDGET / 2)
  journal.add(request('/0', body))
  journal.add(request('/1', body))
  journal.add(request('/2', body))
  // /0 left with its body: /1 and /2 fill the budget exactly and both keep theirs.
  expect(journal.recent().map((entry) => entry.body?.length)).toEqual([
    body.length,
    body.length,
  ])
})

test('tells onAdd, then its subscribers, of every entry, even when it keeps none', () => {
  const seen: string[] = []
  const journal = new Journal(0, (entry) => seen.push(`onAdd ${entry.id}`))
  const unsubscribe = journal.subscribe((entry) => seen.push(`listener ${entry.id}`))
  journal.add(request('/a'))
  unsubscribe()
  journal.add(request('/b'))
  expect(seen).toEqual(['onAdd 1', 'listener 1', 'onAdd 2'])
  expect(journal.recent()).toEqual([])
})

test('says it is complete until an entry is dropped or a body cut, and again after clear()', () => {
  const journal = new Journal(2)
  journal.add(request('/a', '{}'))
  journal.add(request('/b'))
  expect(journal.complete).toBe(true)
  journal.add(request('/c'))
  expect(journal.complete).toBe(false)
  journal.clear()
  expect(journal.complete).toBe(true)
  journal.add({ ...request('/d', 'x'), bodyTruncated: true })
  expect(journal.complete).toBe(false)

  const bodies = new Journal(100)
  const body = 'x'.repeat(JOURNAL_BODY_BUDGET / 2)
  for (let index = 0; index < 3; index++) bodies.add(request(`/${index}`, body))
  expect(bodies.count).toBe(3)
  expect(bodies.complete).toBe(false)

  const none = new Journal(0)
  none.add(request('/a'))
  expect(none.complete).toBe(false)
})

test("an entry keeps 16 of the request's X-Sandbox-* headers, names of 64 characters and values of 256 at most", () => {
  const headers = new Headers()
  for (let index = 0; index < 20; index++)
    headers.set(
      `x-sandbox-${String(index).padStart(2, '0')}${'n'.repeat(600)}`,
      'v'.repeat(600),
    )
  const kept = journalHeaders(headers) ?? {}
  expect(Object.keys(kept)).toHaveLength(16)
  for (const [name, value] of Object.entries(kept)) {
    expect(name).toMatch(/^x-sandbox-\d\dn{52}…$/)
    expect(value).toBe(`${'v'.repeat(256)}…`)
  }
})
