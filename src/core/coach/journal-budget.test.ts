import { expect, test } from 'vitest'
import { Journal, type JournalEntry } from './journal.js'
import {
  ENTRY_OVERHEAD_BYTES,
  entryBytes,
  JOURNAL_FLOOR,
  JOURNAL_PATH_LIMIT,
  JournalBudget,
  journalPath,
} from './journal-budget.js'
import { textBytes, utf8Length } from '../common/text-bytes.js'
import { DEFAULT_MAX_JOURNAL_BYTES } from '../common/limits.js'

const request = (path: string, body?: string): Omit<JournalEntry, 'id'> => ({
  at: '2027-01-01T00:00:00.000Z',
  method: body === undefined ? 'GET' : 'POST',
  path,
  status: 200,
  durationMs: 1,
  scenario: 'default',
  ...(body === undefined ? {} : { body }),
})

/** The bytes an entry of this path (and body) counts. */
const sizeOf = (path: string, body?: string) =>
  entryBytes({ id: 1, ...request(path, body) })

/** The bytes a journal's entries count, from the entries themselves. */
const bytesOf = (...journals: Journal[]) =>
  journals.reduce(
    (sum, journal) =>
      sum + journal.recent().reduce((total, entry) => total + entryBytes(entry), 0),
    0,
  )

test('an entry counts 256 bytes plus the bytes of its strings, near its JSON and never below their memory', () => {
  const entry: JournalEntry = {
    id: 12,
    ...request('/v1/pets?name=Zoë', '{"name":"Rex 🐕"}'),
    key: 'sandbox-free-key',
    headers: { 'content-type': 'application/json' },
    rateLimit: { limit: 100, remaining: 99, reset: 1_800_000_000 },
  }
  const strings = [
    entry.at,
    'POST',
    '/v1/pets?name=Zoë',
    'default',
    'sandbox-free-key',
    '{"name":"Rex 🐕"}',
    'content-type',
    'application/json',
  ]
  // Latin-1 text (Zoë) is held a byte a character, other text (🐕) as UTF-16: each
  // counts the larger of its UTF-8 and what it is held in.
  const held = (text: string) =>
    /[\u0100-\uffff]/.test(text) ? 2 * text.length : text.length
  const expected =
    ENTRY_OVERHEAD_BYTES +
    strings.reduce(
      (sum, text) => sum + Math.max(new TextEncoder().encode(text).length, held(text)),
      0,
    )
  expect(entryBytes(entry)).toBe(expected)
  expect(textBytes('{"name":"Rex 🐕"}')).toBe(34)
  expect(textBytes('/v1/pets?name=Zoë')).toBe(18)
  const json = new TextEncoder().encode(JSON.stringify(entry)).length
  expect(entryBytes(entry)).toBeGreaterThanOrEqual(json)
  expect(entryBytes(entry) - json).toBeLessThan(ENTRY_OVERHEAD_BYTES)
})

test('utf8Length counts as TextEncoder does, short and long texts alike', () => {
  for (const text of [
    '',
    'abc',
    'é',
    '€',
    '🐕',
    '\ud800',
    'a\udc00b',
    'x🐕'.repeat(400),
  ]) {
    expect(utf8Length(text)).toBe(new TextEncoder().encode(text).length)
  }
})

test('a path with its query is cut at 2 KiB with a mark, a character never cut in half', () => {
  const short = `/v1/pets?q=${'a'.repeat(100)}`
  expect(journalPath(short)).toBe(short)
  const long = `/v1/pets?q=${'a'.repeat(15_000)}`
  const kept = journalPath(long)
  expect(kept).toBe(`${long.slice(0, JOURNAL_PATH_LIMIT)}…`)
  const exact = 'a'.repeat(JOURNAL_PATH_LIMIT)
  expect(journalPath(exact)).toBe(exact)
  const pair = `${'a'.repeat(JOURNAL_PATH_LIMIT - 1)}🐕`
  expect(journalPath(pair)).toBe(`${'a'.repeat(JOURNAL_PATH_LIMIT - 1)}…`)
})

test('over the budget, the oldest entries of all journals go first', () => {
  const entry = sizeOf('/a-00')
  // Room for 30 entries.
  const budget = new JournalBudget(30 * entry)
  const first = new Journal(100, undefined, budget)
  const second = new Journal(100, undefined, budget)
  for (let index = 0; index < 20; index++) {
    first.add(request(`/a-${String(index).padStart(2, '0')}`))
    second.add(request(`/b-${String(index).padStart(2, '0')}`))
  }
  // 40 came in turn; the 10 oldest (five of each) are gone.
  expect(budget.bytes).toBe(30 * entry)
  expect(bytesOf(first, second)).toBe(budget.bytes)
  expect(first.recent().at(-1)?.path).toBe('/a-05')
  expect(second.recent().at(-1)?.path).toBe('/b-05')
  // Ids stay as they were: `after` still finds what came since.
  // /a-17 is id 18.
  expect(first.recent(100, 18).map((kept) => kept.path)).toEqual(['/a-19', '/a-18'])
})

test('a flood in one journal cannot take a quiet journal below its last 10', () => {
  const entry = sizeOf('/x-000')
  const budget = new JournalBudget(50 * entry)
  const quiet = new Journal(100, undefined, budget)
  const flood = new Journal(1000, undefined, budget)
  for (let index = 0; index < 25; index++)
    quiet.add(request(`/q-${String(index).padStart(3, '0')}`))
  for (let index = 0; index < 500; index++)
    flood.add(request(`/f-${String(index).padStart(3, '0')}`))
  // The quiet journal's entries were the oldest: they went, down to its last 10.
  expect(quiet.count).toBe(JOURNAL_FLOOR)
  expect(quiet.recent().map((kept) => kept.path)).toEqual(
    Array.from({ length: 10 }, (_, index) => `/q-0${24 - index}`),
  )
  expect(flood.count).toBe(40)
  expect(budget.bytes).toBe(50 * entry)
  expect(bytesOf(quiet, flood)).toBe(budget.bytes)
})

test('journals of 10 entries or fewer keep them all, whatever the budget', () => {
  const budget = new JournalBudget(0)
  const journals = Array.from({ length: 5 }, () => new Journal(100, undefined, budget))
  for (let round = 0; round < 12; round++)
    for (const journal of journals) journal.add(request(`/r-${round}`))
  expect(journals.map((journal) => journal.count)).toEqual([10, 10, 10, 10, 10])
  expect(budget.bytes).toBe(bytesOf(...journals))
})

test('clear(), the size limit and cut bodies give their bytes back', () => {
  const budget = new JournalBudget(10 * 1024 * 1024)
  const journal = new Journal(3, undefined, budget)
  const other = new Journal(100, undefined, budget)
  other.add(request('/other'))
  for (let index = 0; index < 5; index++) journal.add(request(`/${index}`))
  expect(journal.count).toBe(3)
  expect(budget.bytes).toBe(bytesOf(journal, other))
  // Bodies over the journal's body budget are cut from the oldest: their bytes go too.
  const bodies = new Journal(100, undefined, budget)
  for (let index = 0; index < 6; index++)
    bodies.add(request(`/b${index}`, 'x'.repeat(16 * 1024)))
  expect(bodies.recent().filter((entry) => entry.bodyTruncated)).toHaveLength(2)
  expect(budget.bytes).toBe(bytesOf(journal, other, bodies))
  journal.dropOldest()
  expect(budget.bytes).toBe(bytesOf(journal, other, bodies))
  journal.clear()
  bodies.clear()
  expect(budget.bytes).toBe(bytesOf(other))
})

test('under any mix of adds, clears and drops, the count is exact, the budget holds and ids stay in a row', () => {
  // A fixed pseudo-random sequence (a linear congruential generator): the same run every time.
  let state = 7
  const next = (below: number) => {
    state = (state * 1_103_515_245 + 12_345) % 2 ** 31
    return state % below
  }
  const maxBytes = 60 * sizeOf('/p-0000')
  const budget = new JournalBudget(maxBytes)
  const journals = Array.from(
    { length: 8 },
    (_, index) => new Journal(index === 0 ? 12 : 100, undefined, budget),
  )
  for (let step = 0; step < 3000; step++) {
    const journal = journals[next(journals.length)] as Journal
    const action = next(100)
    if (action < 2) journal.clear()
    else if (action < 4) journal.dropOldest()
    else {
      const path = `/p-${String(step).padStart(4, '0')}${'x'.repeat(next(3) * 40)}`
      journal.add(request(path))
    }
    expect(budget.bytes).toBe(bytesOf(...journals))
    const counts = journals.map((each) => each.count)
    if (budget.bytes > maxBytes)
      expect(Math.max(...counts)).toBeLessThanOrEqual(JOURNAL_FLOOR)
    for (const each of journals) {
      const ids = each.recent().map((entry) => entry.id)
      ids.forEach((id, index) => expect(id).toBe((ids[0] as number) - index))
    }
  }
})

test("issue 36's flood, 600 sessions x 40 requests of 14 KB paths, stays within the default 32 MiB", () => {
  const budget = new JournalBudget(DEFAULT_MAX_JOURNAL_BYTES)
  const path = journalPath(`/v1/pets?q=${'a'.repeat(14_000)}`)
  // The cut path ends with `…`: held as UTF-16, 4 KiB, and counted so.
  expect(sizeOf(path)).toBeGreaterThan(2 * JOURNAL_PATH_LIMIT + ENTRY_OVERHEAD_BYTES)
  const sessions = Array.from({ length: 600 }, () => new Journal(100, undefined, budget))
  for (let round = 0; round < 40; round++)
    for (const session of sessions) session.add(request(path))
  expect(budget.bytes).toBeLessThanOrEqual(DEFAULT_MAX_JOURNAL_BYTES)
  expect(budget.bytes).toBeGreaterThan(DEFAULT_MAX_JOURNAL_BYTES - sizeOf(path))
  expect(budget.bytes).toBe(bytesOf(...sessions))
})

test('a flood of 1,000 sessions x 100 requests of 15 KB paths, keeps the budget or no more than the last 10 of each', () => {
  const budget = new JournalBudget(DEFAULT_MAX_JOURNAL_BYTES)
  const developer = new Journal(100, undefined, budget)
  for (let index = 0; index < 40; index++)
    developer.add(request(`/v1/pets?mine=${index}`))
  const path = journalPath(`/v1/pets?q=${'a'.repeat(15_000)}`)
  const sessions = Array.from({ length: 1000 }, () => new Journal(100, undefined, budget))
  for (let round = 0; round < 100; round++)
    for (const session of sessions) session.add(request(path))
  // Without the budget: 1,000 x 100 x 15 KB, some 1.5 GB of paths alone. With it, each
  // journal's last 10 (4 KiB paths), some 44 MB: the floor is the bound.
  for (const session of sessions) expect(session.count).toBe(JOURNAL_FLOOR)
  expect(budget.bytes).toBe(
    1000 * JOURNAL_FLOOR * sizeOf(path) + JOURNAL_FLOOR * sizeOf('/v1/pets?mine=39'),
  )
  expect(budget.bytes).toBe(bytesOf(developer, ...sessions))
  expect(developer.count).toBe(JOURNAL_FLOOR)
  expect(developer.recent()[0]?.path).toBe('/v1/pets?mine=39')
})
