import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { connect } from 'node:net'
import fc from 'fast-check'
import { describe, expect, test } from 'vitest'
import { harTextSteps, journalToHar } from '../coach/har.js'
import {
  DECODE_BYTES,
  decodeSteps,
  JsonRefusal,
  MAX_JSON_DEPTH,
  MAX_JSON_ITEMS,
  parseJsonSteps,
} from './json-parse.js'
import type { JournalEntry } from '../coach/journal.js'
import { entryChars } from '../coach/journal-budget.js'
import {
  createRecords,
  createSeed,
  INSERT_SLICE,
  petTextBytes,
} from '../data/pet-seed.js'
import { GENERATE_SLICE, generatePets, generatePetsSteps } from '../data/seed.js'
import type { Pet } from './schemas.js'
import {
  exportBytes,
  exportTextSteps,
  exportWorld,
  SESSION_FORMAT,
  type ExportSource,
} from '../coach/session-export.js'
import { checkExportSteps } from '../coach/session-import.js'
import {
  atMostValues,
  joinInSlices,
  nextTurn,
  runInSlices,
  runNow,
  SLICE_UNITS,
  SliceMeter,
  turnsWaiting,
  type Steps,
} from './slices.js'

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

  test(`refuses a list or an object of more than ${MAX_JSON_ITEMS} items, before reading it all`, () => {
    const list = (length: number) => `[${Array(length).fill('0').join(',')}]`
    expect(parse(list(MAX_JSON_ITEMS))).toHaveLength(MAX_JSON_ITEMS)
    const refused = parseJsonSteps(`${list(MAX_JSON_ITEMS + 1).slice(0, -1)},{]`)
    // Refused at the item past the bound, before the syntax error after it.
    expect((runNow(refused) as JsonRefusal).reason).toBe('items')
    const members = (count: number) =>
      `{${Array.from({ length: count }, (_, index) => `"k${index}":0`).join(',')}}`
    expect((parse(members(MAX_JSON_ITEMS + 1)) as JsonRefusal).reason).toBe('items')
  })

  test('decodes UTF-8 as TextDecoder does, 256 KiB per slice', () => {
    // Characters of 2, 3 and 4 bytes across slice boundaries, a BOM, and a bad byte.
    const text = 'aé€😀'.repeat(70_000)
    const encoded = new TextEncoder().encode(`\uFEFF${text}`)
    const bytes = new Uint8Array(encoded.length + 1)
    bytes.set(encoded)
    bytes[encoded.length] = 0xff
    const { result, units } = slicesOf(decodeSteps(bytes))
    expect(result).toBe(new TextDecoder().decode(bytes))
    expect(units).toHaveLength(Math.ceil(bytes.length / DECODE_BYTES))
    expect(units.every((done) => done === SLICE_UNITS)).toBe(true)
    expect(runNow(decodeSteps(new TextEncoder().encode('{"a":1}')))).toBe('{"a":1}')
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
    // A pet is four units, a journal entry eight, a scenario eight.
    expectSlices(units, 4 * 10 * SLICE_UNITS + 8 * 2 * SLICE_UNITS, 8)
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
    expect(result.join('')).toBe(text)
    expectSlices(units, 5 * SLICE_UNITS + 4 * SLICE_UNITS, 4)
    // A piece per slice (both lists end on a slice's end here), and the head, the tail
    // and what joins pets and journal: a server writes it piece by piece.
    expect(result).toHaveLength(units.length + 3)
    for (const piece of result) expect(piece.length).toBeLessThan(SLICE_UNITS * 400)
    const journalBytes = SLICE_UNITS * 330
    expect(exportBytes(from, journalBytes)).toBeGreaterThanOrEqual(
      new TextEncoder().encode(text).length,
    )
  })

  test('the HAR text is JSON.stringify of the HAR', () => {
    const entries = Array.from({ length: SLICE_UNITS }, (_, index) => entry(index + 1))
    const options = { origin: 'http://127.0.0.1:4010', complete: false }
    const { result, units } = slicesOf(harTextSteps(entries, options))
    expect(result.join('')).toBe(JSON.stringify(journalToHar(entries, options)))
    // 8 units an entry, and one per 64 characters of its path, body and headers.
    const per = 8 + (entryChars(entry(1)) >> 6)
    expect(per).toBe(9)
    expectSlices(units, per * SLICE_UNITS, per)
    // A piece per slice and the last, partial one, the head and the tail.
    expect(result).toHaveLength(units.length + 3)
    expect(runNow(harTextSteps([], { origin: 'http://x' })).join('')).toBe(
      JSON.stringify(journalToHar([], { origin: 'http://x' })),
    )
  })

  test('an entry of long paths and headers counts for more: fewer of them in a slice', () => {
    const headers: Record<string, string> = {}
    for (let index = 0; index < 16; index++)
      headers[`x-sandbox-note-${index}`] = 'n'.repeat(256)
    const long = (id: number): JournalEntry => ({
      ...entry(id),
      path: `/v1/pets?q=${'q'.repeat(2040)}`,
      headers,
      body: 'b'.repeat(4096),
    })
    const entries = Array.from({ length: 100 }, (_, index) => long(index + 1))
    const options = { origin: 'http://127.0.0.1:4010' }
    const per = 8 + (entryChars(entries[0] as JournalEntry) >> 6)
    expect(per).toBeGreaterThan(150)
    const { result, units } = slicesOf(harTextSteps(entries, options))
    expect(result.join('')).toBe(JSON.stringify(journalToHar(entries, options)))
    expectSlices(units, per * 100, per)
    expect(units.length).toBe(
      Math.floor((per * 100) / (Math.ceil(SLICE_UNITS / per) * per)),
    )
    // And in an export, 4 units and one per 256 characters.
    const from = {
      ...source(0, 0),
      journal: { recent: () => [...entries], complete: true },
    }
    const exported = slicesOf(exportTextSteps(from))
    expect(exported.result.join('')).toBe(JSON.stringify(exportWorld(from)))
    expectSlices(
      exported.units,
      (4 + (entryChars(entries[0] as JournalEntry) >> 8)) * 100,
      60,
    )
  })

  test('the export of a session with nothing in it is still the same text', () => {
    const from = { ...source(0, 0), scenarios: [] }
    const text = runNow(exportTextSteps(from)).join('')
    expect(text).toBe(JSON.stringify(exportWorld(from)))
    expect(JSON.parse(text).format).toBe(SESSION_FORMAT)
  })

  test('an estimate counted as pets come and go is the one read pet by pet', () => {
    const from = source(3 * SLICE_UNITS, 10)
    const counted = from.pets.reduce((bytes, pet) => bytes + petTextBytes(pet), 0)
    expect(exportBytes({ ...from, petBytes: counted }, 100)).toBe(exportBytes(from, 100))
    // The count is what is used: the pets are not read.
    expect(exportBytes({ ...from, pets: [], petBytes: counted }, 100)).toBe(
      exportBytes(from, 100),
    )
  })
})

describe('joinInSlices', () => {
  test('gives the texts joined by commas, a piece per slice, for any count and size', () => {
    fc.assert(
      fc.property(
        fc.array(fc.string({ maxLength: 3 }), { maxLength: 40 }),
        fc.integer({ min: 1, max: 7 }),
        (texts, size) => {
          const meter = new SliceMeter(size)
          const { result, units } = slicesOf(
            joinInSlices(texts, (text) => text, 1, meter),
          )
          expect(result.join('')).toBe(texts.join(','))
          expect(units.every((done) => done === size)).toBe(true)
          expect(units).toHaveLength(Math.floor(texts.length / size))
          expect(result).toHaveLength(Math.ceil(texts.length / size))
        },
      ),
    )
  })
})

describe('turns: one slice of sliced work per task, whoever it is for', () => {
  /** Steps that log `name` once per slice, `slices` times. */
  function* logging(log: string[], name: string, slices: number): Steps<string> {
    for (let slice = 0; slice < slices; slice++) {
      log.push(name)
      yield 1
    }
    return name
  }

  test('two at once take turns, and a timer set meanwhile runs between two turns', async () => {
    const log: string[] = []
    const both = Promise.all([
      runInSlices(logging(log, 'a', 4)),
      runInSlices(logging(log, 'b', 4)),
    ])
    // A bystander: each of its tasks sees at most one slice done before it.
    let seen = log.length
    const between: number[] = []
    let ticking = true
    const tick = () => {
      between.push(log.length - seen)
      seen = log.length
      if (ticking) setImmediate(tick)
    }
    setImmediate(tick)
    expect(await both).toEqual(['a', 'b'])
    ticking = false
    // The first slice of each runs at once (its call); then one per turn, in turn.
    expect(log).toEqual(['a', 'b', 'a', 'b', 'a', 'b', 'a', 'b'])
    expect(between.length).toBeGreaterThanOrEqual(3)
    expect(Math.max(...between)).toBeLessThanOrEqual(1)
    expect(turnsWaiting()).toBe(0)
  })

  test('a turn is a task: nextTurn resolves after a task queued before it, and after I/O that is ready', async () => {
    const order: string[] = []
    setImmediate(() => order.push('task'))
    await nextTurn()
    order.push('turn')
    expect(order).toEqual(['task', 'turn'])
    // A network answer that is ready goes before the next turn (Node reads the network
    // before it runs immediates): a bystander's request is not kept behind sliced work.
    const server = createServer((_request, response) => response.end('ok'))
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
    const { port } = server.address() as AddressInfo
    try {
      let answered = false
      const socket = connect(port, '127.0.0.1')
      socket.on('data', () => (answered = true))
      socket.write('GET / HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n')
      let turns = 0
      while (!answered && turns < 10_000) {
        await nextTurn()
        turns++
      }
      socket.destroy()
      expect(answered).toBe(true)
      expect(turns).toBeLessThan(10_000)
    } finally {
      await new Promise((resolve) => server.close(resolve))
    }
  })
})

test('records are made (seeding, restoring) in slices of INSERT_SLICE, with a pause between', async () => {
  let pauses = 0
  const records = await createRecords(pets(5 * INSERT_SLICE + 7), async () => {
    pauses++
  })
  expect(records).toHaveLength(5 * INSERT_SLICE + 7)
  // Six slices (five full ones and 7 records), a pause before each.
  expect(pauses).toBe(6)
  // One slice's worth is made at once, without a pause (a small seed, in a test on fake
  // timers).
  pauses = 0
  await createRecords(pets(INSERT_SLICE), async () => {
    pauses++
  })
  expect(pauses).toBe(0)
  let ticks = 0
  const ticking = setInterval(() => ticks++, 0)
  await createRecords(pets(5 * INSERT_SLICE))
  clearInterval(ticking)
  // The default pause is a task: other timers ran between slices.
  expect(ticks).toBeGreaterThanOrEqual(3)
})

test('a seed is made, frozen, indexed and counted in slices, with a pause between', async () => {
  let pauses = 0
  const count = 20 * INSERT_SLICE
  const dogs = [{ id: 1, name: 'Dogs' }]
  const make = () => generatePetsSteps(7, count, dogs)
  const seed = await createSeed({ count, make }, async () => {
    pauses++
  })
  // One before the pets are made, 4 between the 5 slices of GENERATE_SLICE made, one
  // before each of the 20 slices of records, then 2 between the 3 slices of 8 * 512
  // frozen, indexed and counted.
  expect(count / GENERATE_SLICE).toBe(5)
  expect(pauses).toBe(1 + 4 + 20 + 2)
  // The pets generatePets makes at once.
  const made = generatePets(7, count, dogs)
  expect(seed.pets.map((pet) => pet.name)).toEqual(made.map((pet) => pet.name))
  expect(seed.pets.map((pet) => pet.status)).toEqual(made.map((pet) => pet.status))
  expect(Object.isFrozen(seed.pets[count - 1])).toBe(true)
  expect(seed.byId.get(count)).toBe(seed.pets[count - 1])
  expect(seed.bytes).toBe(seed.pets.reduce((bytes, pet) => bytes + petTextBytes(pet), 0))
})
