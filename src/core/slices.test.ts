import fc from 'fast-check'
import { describe, expect, test } from 'vitest'
import { harTextSteps, journalToHar } from './har.js'
import { JsonRefusal, MAX_JSON_DEPTH, parseJsonSteps } from './json-parse.js'
import type { JournalEntry } from './journal.js'
import { createRecords, INSERT_SLICE } from './pet-seed.js'
import type { Pet } from './schemas.js'
import {
  checkExportSteps,
  exportBytes,
  exportTextSteps,
  exportWorld,
  SESSION_FORMAT,
  type ExportSource,
} from './session-export.js'
import { atMostValues, runNow, SLICE_UNITS, type Steps } from './slices.js'

/** Runs steps to their end, keeping the units each slice did. */
function slicesOf<Result>(steps: Steps<Result>): { result: Result; units: number[] } {
  const units: number[] = []
  for (;;) {
    const step = steps.next()
    if (step.done) return { result: step.value, units }
    units.push(step.value)
  }
}

/** Every slice is full, and none is much more than full (one item may overfill it). */
function expectSlices(units: number[], total: number, most: number) {
  expect(units.length).toBeGreaterThanOrEqual(Math.floor(total / (SLICE_UNITS + most)))
  for (const done of units) {
    expect(done).toBeGreaterThanOrEqual(SLICE_UNITS)
    expect(done).toBeLessThan(SLICE_UNITS + most)
  }
}

const pets = (count: number): Pet[] =>
  Array.from({ length: count }, (_, index) => ({
    id: index + 1,
    name: `Pet ${index} é`,
    categoryId: 1 + (index % 3),
    status: 'available',
  }))

const entry = (id: number): JournalEntry => ({
  id,
  at: '2030-01-01T00:00:00.000Z',
  method: 'POST',
  path: `/v1/pets?x=${id}`,
  status: 201,
  durationMs: 1,
  scenario: 'default',
  headers: { 'content-type': 'application/json' },
  body: '{"name":"Rex \\"the\\" dog","categoryId":1}',
})

function source(petCount: number, entries: number): ExportSource {
  const journal = Array.from({ length: entries }, (_, index) => entry(index + 1))
  return {
    session: 'alice',
    seed: 42,
    count: petCount,
    scenario: 'default',
    scenarios: [
      {
        name: 'mine',
        description: 'x',
        errors: { getPet: { status: 503, code: 'service_unavailable' } },
      },
    ],
    clock: { state: () => ({ now: '2030-01-01T00:00:00.000Z', frozen: true }) },
    pets: pets(petCount),
    journal: { recent: () => [...journal].reverse(), complete: false },
  } as ExportSource
}

describe('parseJsonSteps', () => {
  const parse = (text: string) => runNow(parseJsonSteps(text))

  test('gives what JSON.parse gives, and refuses what it refuses', () => {
    fc.assert(
      fc.property(fc.json(), (text) => {
        expect(parse(text)).toStrictEqual(JSON.parse(text))
      }),
    )
    fc.assert(
      fc.property(fc.jsonValue(), fc.nat(3), (value, indent) => {
        const text = JSON.stringify(value, null, indent)
        expect(parse(text)).toStrictEqual(JSON.parse(text))
      }),
    )
    const refused = (text: string) => {
      try {
        JSON.parse(text)
        return false
      } catch {
        return true
      }
    }
    fc.assert(
      fc.property(
        fc.string({ unit: fc.constantFrom(...'{}[]",:0123-.eE tfnrul\\ax') }),
        (text) => {
          expect(parse(text) instanceof JsonRefusal).toBe(refused(text))
        },
      ),
      { numRuns: 2000 },
    )
  })

  test('keeps __proto__ as an own field, and the last of duplicate keys', () => {
    const value = parse('{"__proto__":{"admin":true},"a":1,"a":2}') as Record<
      string,
      unknown
    >
    expect(Object.getPrototypeOf(value)).toBe(Object.prototype)
    expect(Object.keys(value)).toEqual(['__proto__', 'a'])
    expect(value.a).toBe(2)
  })

  test(`refuses nesting deeper than ${MAX_JSON_DEPTH}, before reading it all`, () => {
    const deep = (depth: number) => `${'['.repeat(depth)}${']'.repeat(depth)}`
    expect(parse(deep(MAX_JSON_DEPTH))).toStrictEqual(JSON.parse(deep(MAX_JSON_DEPTH)))
    const refused = parse(deep(4_000_000))
    expect(refused).toBeInstanceOf(JsonRefusal)
    expect((refused as JsonRefusal).reason).toBe('depth')
  })

  test('works in slices of SLICE_UNITS values', () => {
    const count = 20 * SLICE_UNITS
    const { result, units } = slicesOf(
      parseJsonSteps(`[${Array(count).fill('{}').join(',')}]`),
    )
    expect(result).toHaveLength(count)
    // A value and its three characters: one unit each.
    expectSlices(units, count, 2)
  })
})

describe('the checks of an import, in slices', () => {
  test('a journal of 20,000 or 300,000 wrong entries is refused at its first one', () => {
    const data = exportWorld(source(3, 0))
    for (const length of [20_000, 300_000]) {
      const { result, units } = slicesOf(
        checkExportSteps({ ...data, journal: Array(length).fill({}) }),
      )
      expect(result).toEqual({
        ok: false,
        message:
          length === 20_000
            ? expect.stringMatching(/^from\.journal\[0\]\.id is required/)
            : 'from.journal must have at most 100000 item(s)',
      })
      expect(units).toEqual([])
    }
  })

  test('an item with a hundred thousand wrong fields is refused before its schema reads it', () => {
    const data = exportWorld(source(3, 0))
    const wide = Object.fromEntries(
      Array.from({ length: 100_000 }, (_, i) => [`p${i}`, 1]),
    )
    const plans = { ...data.scenarios[0], rateLimits: { plans: wide } }
    expect(runNow(checkExportSteps({ ...data, scenarios: [plans] }))).toEqual({
      ok: false,
      message: expect.stringMatching(
        /^from\.scenarios\[0\] holds more than 10,000 values/,
      ),
    })
    const headers = { ...entry(1), headers: wide }
    expect(runNow(checkExportSteps({ ...data, journal: [headers] }))).toEqual({
      ok: false,
      message: expect.stringMatching(/^from\.journal\[0\] holds more than 1,000 values/),
    })
  })

  test('the pets and journal of an export are checked in slices', () => {
    const data = exportWorld(source(10 * SLICE_UNITS, 2 * SLICE_UNITS))
    const { result, units } = slicesOf(checkExportSteps(data))
    expect(result.ok).toBe(true)
    // A pet is a unit, a journal entry four, a scenario eight.
    expectSlices(units, 10 * SLICE_UNITS + 8 * SLICE_UNITS, 8)
  })

  test('atMostValues counts without reading past its bound', () => {
    // The object, its keys a, b and c, and the values [1, 2], 1, 2, {c} and null.
    expect(atMostValues({ a: [1, 2], b: { c: null } }, 9)).toBe(true)
    expect(atMostValues({ a: [1, 2], b: { c: null } }, 8)).toBe(false)
    const list = Array(1_000_000).fill(0)
    expect(atMostValues({ list }, 5, list)).toBe(true)
  })
})

describe('an export and a HAR, built in slices', () => {
  test('the export text is JSON.stringify of the export, and its estimate is no smaller', () => {
    const from = source(5 * SLICE_UNITS, SLICE_UNITS)
    const { result, units } = slicesOf(exportTextSteps(from))
    const text = JSON.stringify(exportWorld(from))
    expect(result).toBe(text)
    expectSlices(units, 5 * SLICE_UNITS + 4 * SLICE_UNITS, 4)
    const journalBytes = SLICE_UNITS * 330
    expect(exportBytes(from, journalBytes)).toBeGreaterThanOrEqual(
      new TextEncoder().encode(text).length,
    )
  })

  test('the HAR text is JSON.stringify of the HAR', () => {
    const entries = Array.from({ length: SLICE_UNITS }, (_, index) => entry(index + 1))
    const options = { origin: 'http://127.0.0.1:4010', complete: false }
    const { result, units } = slicesOf(harTextSteps(entries, options))
    expect(result).toBe(JSON.stringify(journalToHar(entries, options)))
    expectSlices(units, 8 * SLICE_UNITS, 8)
    expect(runNow(harTextSteps([], { origin: 'http://x' }))).toBe(
      JSON.stringify(journalToHar([], { origin: 'http://x' })),
    )
  })

  test('the export of a session with nothing in it is still the same text', () => {
    const from = { ...source(0, 0), scenarios: [] }
    expect(runNow(exportTextSteps(from))).toBe(JSON.stringify(exportWorld(from)))
    expect(JSON.parse(runNow(exportTextSteps(from))).format).toBe(SESSION_FORMAT)
  })
})

test('records are made (seeding, restoring) in slices of INSERT_SLICE, with a pause between', async () => {
  let pauses = 0
  const records = await createRecords(pets(5 * INSERT_SLICE + 7), async () => {
    pauses++
  })
  expect(records).toHaveLength(5 * INSERT_SLICE + 7)
  // Six slices (five full ones and 7 records), a pause between each two.
  expect(pauses).toBe(5)
  let ticks = 0
  const ticking = setInterval(() => ticks++, 0)
  await createRecords(pets(5 * INSERT_SLICE))
  clearInterval(ticking)
  // The default pause is a task: other timers ran between slices.
  expect(ticks).toBeGreaterThanOrEqual(3)
})
