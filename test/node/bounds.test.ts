import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, test } from 'vitest'
import { createSandbox, SandboxError, setupSandboxServer } from 'petstore-sandbox/node'
import { portOf } from '../../src/core/pipeline/sandbox-port.js'

// Item 5 ("bounded by design": name length, created pets per world and in all) and the
// smaller defects of item 6 that the core answers (ids in files, the clock's end, a
// scenario header's rate-limit window), through the sandbox's one port.

const FREE = { authorization: 'Bearer sandbox-free-key' }
const ORIGIN = 'https://x.test'
type Sandbox = ReturnType<typeof createSandbox>

const dir = mkdtempSync(join(tmpdir(), 'petstore-bounds-'))
afterAll(() => rmSync(dir, { recursive: true, force: true }))

async function call(
  sandbox: Sandbox,
  method: string,
  path: string,
  options: { body?: unknown; headers?: Record<string, string> } = {},
) {
  const reply = await portOf(sandbox).handle(
    new Request(`${ORIGIN}${path}`, {
      method,
      headers: {
        ...FREE,
        ...(options.body === undefined ? {} : { 'content-type': 'application/json' }),
        ...options.headers,
      },
      ...(options.body === undefined ? {} : { body: JSON.stringify(options.body) }),
    }),
  )
  if (!reply) throw new Error(`not the sandbox's: ${path}`)
  const body =
    reply.text === '' ? {} : (JSON.parse(reply.text) as Record<string, unknown>)
  return { ...reply, body }
}

const createPet = (sandbox: Sandbox, name = 'Rex', headers?: Record<string, string>) =>
  call(sandbox, 'POST', '/v1/pets', {
    body: { name, categoryId: 1 },
    ...(headers ? { headers } : {}),
  })

const expectRateLimitHeaders = (headers: Record<string, string>) => {
  for (const name of ['x-ratelimit-limit', 'x-ratelimit-remaining', 'x-ratelimit-reset'])
    expect(headers[name], name).toMatch(/^\d+$/)
}

describe('name is 1 to 1,000 characters', () => {
  test('1,000 characters (in any script) are a name; 1,001 are 400 naming the field and the limit', async () => {
    const sandbox = createSandbox({ count: 0 })
    for (const char of ['x', '€', 'é']) {
      const longest = await createPet(sandbox, char.repeat(1000))
      expect(longest.status).toBe(201)
      const over = await createPet(sandbox, char.repeat(1001))
      expect(over.status).toBe(400)
      expect(over.body.code).toBe('validation_failed')
      expect(over.body.message).toMatch(/name must be at most 1000 characters/)
      expectRateLimitHeaders(over.headers)
    }
    expect(sandbox.db.pets.count()).toBe(3)
  })

  test('fixtures and scenario pets are held to the same limit', () => {
    const pets = [{ name: 'x'.repeat(1001), categoryId: 1 }]
    expect(() => createSandbox({ fixtures: { pets } })).toThrow(
      /pets\[0\]\.name must be at most 1000 characters/,
    )
    expect(() =>
      createSandbox({ scenario: { name: 'long', description: 'd', data: { pets } } }),
    ).toThrow(/data\.pets\[0\]\.name must be at most 1000 characters/)
  })
})

describe('created pets are bounded per world and in all', () => {
  test('one world keeps maxPets created pets; one more is 507 storage_full naming reset, and reset frees them', async () => {
    // Seeded pets do not count: 50 of them, and still 3 creates.
    const sandbox = createSandbox({ count: 50, maxPets: 3 })
    for (let index = 0; index < 3; index++)
      expect((await createPet(sandbox)).status).toBe(201)
    const full = await createPet(sandbox)
    expect(full.status).toBe(507)
    expect(full.body).toEqual({
      code: 'storage_full',
      message: expect.stringMatching(/maxPets.*POST \/__sandbox\/reset/),
      status: 507,
    })
    expectRateLimitHeaders(full.headers)
    expect(sandbox.db.pets.count()).toBe(53)
    // The refused create took no id: the next one after a reset is the seed's next.
    await call(sandbox, 'POST', '/__sandbox/reset')
    const again = await createPet(sandbox)
    expect(again.status).toBe(201)
    expect(again.body.id).toBe(51)
  })

  test('every world of the sandbox reports to one counter, maxTotalPets; dropped worlds stop counting', async () => {
    const sandbox = createSandbox({ count: 5, maxPets: 3, maxTotalPets: 4 })
    const emptyStore = { 'x-sandbox-scenario': 'empty-store' }
    for (let index = 0; index < 3; index++)
      expect((await createPet(sandbox)).status).toBe(201)
    // Another world (a data scenario) has room of its own, but not the sandbox.
    expect((await createPet(sandbox, 'Ada', emptyStore)).status).toBe(201)
    const full = await createPet(sandbox, 'Bea', emptyStore)
    expect(full.status).toBe(507)
    expect(full.body.code).toBe('storage_full')
    expect(full.body.message).toMatch(/maxTotalPets.*POST \/__sandbox\/reset/)
    // A reset drops the scenario's world and the default's created pets: room again.
    await sandbox.reset()
    for (let index = 0; index < 3; index++)
      expect((await createPet(sandbox, 'Cy', emptyStore)).status).toBe(201)
    expect((await createPet(sandbox)).status).toBe(201)
    expect((await createPet(sandbox)).status).toBe(507)
  })

  test('the pets scenarios defined at run time seed count too: maxPets a session, maxTotalPets in all', async () => {
    const sandbox = createSandbox({ count: 5, maxPets: 100, maxTotalPets: 120 })
    const define = (session: string, name: string, data: Record<string, unknown>) =>
      call(sandbox, 'PUT', `/__sandbox/scenarios/${name}`, {
        body: { description: name, data },
        headers: { 'x-sandbox-session': session },
      })
    expect((await define('ann', 'sixty', { count: 60 })).status).toBe(201)
    const over = await define('ann', 'forty-one', { count: 41 })
    expect(over.status).toBe(400)
    expect(over.body.message).toMatch(
      /data adds 41 pets to seed, and the scenarios a session defines seed at most 100 together \(maxPets, --max-pets\), 60 already/,
    )
    expect(over.body.message).toMatch(/DELETE \/__sandbox\/scenarios\/\{name\}/)
    // Without count or pets, the data seeds the sandbox's count (5): 65 in all.
    expect((await define('ann', 'default-count', { seed: 3 })).status).toBe(201)
    // Another session has its own 100, but the sandbox keeps 120 in all.
    expect((await define('bo', 'fifty', { count: 50 })).status).toBe(201)
    const full = await define('bo', 'six', { count: 6 })
    expect(full.status).toBe(400)
    expect(full.body.message).toMatch(
      /already holds 115 .* of the 120 it keeps \(maxTotalPets/,
    )
    // Created pets count in the same total.
    for (let index = 0; index < 5; index++)
      expect((await createPet(sandbox)).status).toBe(201)
    expect((await createPet(sandbox)).status).toBe(507)
    // Replacing, deleting and resetting give their pets back: 120 - 50 - 50 - 15 + 6.
    expect((await define('ann', 'sixty', { count: 10 })).status).toBe(200)
    expect((await define('bo', 'six', { count: 6 })).status).toBe(201)
    const deleted = await call(sandbox, 'DELETE', '/__sandbox/scenarios/fifty', {
      headers: { 'x-sandbox-session': 'bo' },
    })
    expect(deleted.status).toBe(204)
    await call(sandbox, 'POST', '/__sandbox/reset', {
      headers: { 'x-sandbox-session': 'ann' },
    })
    expect((await define('cy', 'hundred', { count: 100 })).status).toBe(201)
    expect((await define('cy', 'one-more', { count: 10 })).status).toBe(400)
  })

  test('a removed scenario leaves no rate-limit windows behind: defined again, it starts afresh', async () => {
    const sandbox = createSandbox({ count: 5 })
    const tight = {
      description: 'two a minute',
      rateLimits: { plans: { free: { perMinute: 2, perDay: 100 } } },
    }
    const session = { 'x-sandbox-session': 'ann' }
    const list = () =>
      call(sandbox, 'GET', '/v1/pets?limit=1', {
        headers: { ...session, 'x-sandbox-scenario': 'tight' },
      })
    const path = '/__sandbox/scenarios/tight'
    expect(
      (await call(sandbox, 'PUT', path, { body: tight, headers: session })).status,
    ).toBe(201)
    expect((await list()).status).toBe(200)
    expect((await list()).status).toBe(200)
    expect((await list()).status).toBe(429)
    expect((await call(sandbox, 'DELETE', path, { headers: session })).status).toBe(204)
    expect(
      (await call(sandbox, 'PUT', path, { body: tight, headers: session })).status,
    ).toBe(201)
    const fresh = await list()
    expect(fresh.status).toBe(200)
    expect(fresh.headers['x-ratelimit-remaining']).toBe('1')
  })

  test('the limits are options checked like the others', () => {
    for (const options of [
      { maxPets: -1 },
      { maxPets: 1.5 },
      { maxTotalPets: 1e10 },
    ] as const) {
      expect(() => createSandbox(options)).toThrow(SandboxError)
    }
    expect(() => createSandbox({ maxPets: -1 })).toThrow(/option maxPets/)
  })
})

describe('ids in fixtures and scenario files', () => {
  const write = (name: string, data: unknown) => {
    const path = join(dir, name)
    writeFileSync(path, JSON.stringify(data))
    return path
  }

  test('an id past 2^53 - 1 - maxPets, or a duplicate, stops loading with the file and the id named', () => {
    const edge = Number.MAX_SAFE_INTEGER
    const cases: Array<[object, RegExp]> = [
      [
        {
          fixtures: write('max.json', { pets: [{ id: edge, name: 'A', categoryId: 1 }] }),
        },
        new RegExp(`max\\.json: pets\\[0\\]\\.id ${edge} is past ${edge - 100_000}`),
      ],
      [
        {
          scenario: write('dup.json', {
            name: 'dup',
            description: 'duplicate ids',
            data: {
              pets: [
                { id: 7, name: 'A', categoryId: 1 },
                { id: 7, name: 'B', categoryId: 1 },
              ],
            },
          }),
        },
        /dup\.json: data\.pets\[1\]\.id 7 appears twice \(also data\.pets\[0\]\.id\)/,
      ],
      [
        {
          scenarios: [
            write('edge.json', {
              name: 'edge',
              description: 'an id at the very end',
              data: { pets: [{ id: edge, name: 'A', categoryId: 1 }] },
            }),
          ],
        },
        new RegExp(`edge\\.json: data\\.pets\\[0\\]\\.id ${edge} is past`),
      ],
    ]
    for (const [options, message] of cases) {
      let error: unknown
      try {
        setupSandboxServer(options)
      } catch (caught) {
        error = caught
      }
      expect(error).toBeInstanceOf(SandboxError)
      expect((error as Error).message).toMatch(message)
    }
  })

  test('the largest id a file may use leaves room for maxPets creates, which never answer 500', async () => {
    const last = Number.MAX_SAFE_INTEGER - 2
    const sandbox = createSandbox({
      maxPets: 2,
      fixtures: { pets: [{ id: last, name: 'Edge', categoryId: 1 }] },
    })
    expect((await createPet(sandbox)).body.id).toBe(last + 1)
    expect((await createPet(sandbox)).body.id).toBe(Number.MAX_SAFE_INTEGER)
    const full = await createPet(sandbox)
    expect(full.status).toBe(507)
    expect(full.body.code).toBe('storage_full')
  })
})

describe('the clock stops at the end of its range', () => {
  test('set to the last instant, a running clock stays there; advancing past it names advanceSeconds, and it goes back', async () => {
    const sandbox = createSandbox({ count: 0 })
    const end = '9999-12-31T23:59:59.999Z'
    expect(
      (await call(sandbox, 'POST', '/__sandbox/clock', { body: { now: end } })).status,
    ).toBe(200)
    await new Promise((resolve) => setTimeout(resolve, 20))
    expect((await call(sandbox, 'GET', '/__sandbox/clock')).body).toEqual({
      now: end,
      frozen: false,
    })
    const refused = await call(sandbox, 'POST', '/__sandbox/clock', {
      body: { advanceSeconds: 60 },
    })
    expect(refused.status).toBe(400)
    expect(refused.body.message).toMatch(/"advanceSeconds"/)
    expect(refused.body.message).not.toMatch(/"now"/)
    const back = await call(sandbox, 'POST', '/__sandbox/clock', {
      body: { advanceSeconds: -60 },
    })
    expect(back.status).toBe(200)
    expect(Date.parse(back.body.now as string)).toBeLessThanOrEqual(
      Date.parse('9999-12-31T23:58:59.999Z') + 1000,
    )
    // Responses keep their Unix-second headers within range.
    const list = await call(sandbox, 'GET', '/v1/pets')
    expect(list.status).toBe(200)
    expectRateLimitHeaders(list.headers)
  })
})

describe('X-Sandbox-Scenario affects that request only', () => {
  test('a ban earned under a rate-limit scenario picked by header never reaches plain requests', async () => {
    const sandbox = createSandbox({
      count: 3,
      clock: { now: '2027-01-01T00:00:10Z', frozen: true },
    })
    const limited = { 'x-sandbox-scenario': 'rate-limited' }
    const codes: unknown[] = []
    for (let index = 0; index < 12; index++)
      codes.push((await call(sandbox, 'GET', '/v1/pets', { headers: limited })).body.code)
    // The header's own window behaves as the scenario says: 429, then a ban.
    expect(codes[0]).toBe('rate_limit_exceeded')
    expect(codes.at(-1)).toBe('api_key_temporarily_banned')
    // The key's plain requests are untouched: their window was never used.
    const plain = await call(sandbox, 'GET', '/v1/pets')
    expect(plain.status).toBe(200)
    expect(plain.headers['x-ratelimit-remaining']).toBe('59')
    // And the header's ban stays where it was earned.
    expect((await call(sandbox, 'GET', '/v1/pets', { headers: limited })).body.code).toBe(
      'api_key_temporarily_banned',
    )
  })

  test('a header naming a scenario without rate limits counts in the key’s own window', async () => {
    const sandbox = createSandbox({
      count: 3,
      clock: { now: '2027-01-01T00:00:10Z', frozen: true },
    })
    await call(sandbox, 'GET', '/v1/pets', {
      headers: { 'x-sandbox-scenario': 'missing-pet' },
    })
    const plain = await call(sandbox, 'GET', '/v1/pets')
    expect(plain.headers['x-ratelimit-remaining']).toBe('58')
  })
})

test('a clock body that sets nothing says so, with the fields it takes', async () => {
  const sandbox = createSandbox({ count: 0 })
  const refused = await call(sandbox, 'POST', '/__sandbox/clock', { body: {} })
  expect(refused.status).toBe(400)
  expect(refused.body.message).toMatch(
    /^Invalid body: body must set at least one field\. Send \{"advanceSeconds": 60\}/,
  )
})

describe('a scenario defined at run time is bounded in every text it holds', () => {
  const plans = Object.fromEntries(
    Array.from({ length: 50 }, (_, index) => [
      `plan-${index}`,
      { perMinute: 1, perDay: 1 },
    ]),
  )
  // rateLimits.plans names plans of the fixtures: these have the 50 it may name.
  const sandbox = createSandbox({
    count: 0,
    fixtures: { apiKeys: { plans, keys: [{ key: 'k', plan: 'plan-0' }] } },
  })
  const define = (name: string, body: Record<string, unknown>) =>
    call(sandbox, 'PUT', `/__sandbox/scenarios/${name}`, { body })
  const long = (length: number) => 'x'.repeat(length)

  test('at the limits it is taken', async () => {
    const reply = await define(long(64), {
      description: long(1_000),
      errors: { getPet: { status: 503, code: long(64), message: long(1_000) } },
      rateLimits: { plans },
    })
    expect(reply.status).toBe(201)
  })

  test.each([
    ['a name over 64 characters', long(65), {}, /name must be at most 64 characters/],
    [
      'a description over 1,000',
      'long-description',
      { description: long(1_001) },
      /description must be at most 1000 characters/,
    ],
    [
      'a forced error message over 1,000',
      'long-message',
      { errors: { '*': { status: 503, code: 'down', message: long(1_001) } } },
      /errors\.\*\.message must be at most 1000 characters/,
    ],
    [
      'more than 50 plans',
      'many-plans',
      {
        rateLimits: {
          plans: Object.fromEntries(
            Array.from({ length: 51 }, (_, index) => [
              `p${index}`,
              { perMinute: 1, perDay: 1 },
            ]),
          ),
        },
      },
      /rateLimits\.plans must name at most 50 plans/,
    ],
  ])('%s is refused, naming the field', async (_what, name, fields, message) => {
    const reply = await define(name, { description: 'd', ...fields })
    expect(reply.status).toBe(400)
    expect(reply.body.code).toBe('validation_failed')
    expect(reply.body.message).toMatch(message)
    const state = await call(sandbox, 'GET', '/__sandbox')
    expect(JSON.stringify(state.body)).toContain('"x'.padEnd(65, 'x'))
    expect(JSON.stringify(state.body)).not.toContain(`"${name}"`)
  })
})
