import fc from 'fast-check'
import { getResponse } from 'msw'
import { expect, test } from 'vitest'
import { createSandbox, type Pet } from 'petstore-sandbox'

const KEYS = [
  'sandbox-free-key',
  'sandbox-pro-key',
  'sandbox-enterprise-key',
  'sandbox-expired-key',
]
const printable = fc.string({
  unit: fc.integer({ min: 0x20, max: 0x7e }).map((code) => String.fromCharCode(code)),
  maxLength: 60,
})
const hugeInteger = fc.bigInt({ min: 2n ** 53n - 3n, max: 2n ** 70n }).map(String)

const anyValue: fc.Arbitrary<unknown> = fc.oneof(
  fc.string({ maxLength: 30 }),
  fc.string({ unit: 'grapheme', maxLength: 30 }),
  fc.string({ unit: 'binary', maxLength: 30 }),
  fc.integer(),
  fc.double(),
  fc.boolean(),
  fc.constant(null),
  fc.constantFrom(
    0,
    -1,
    2 ** 53,
    2 ** 53 + 2,
    Number.MAX_SAFE_INTEGER,
    'available',
    'sold',
    '1',
    '',
  ),
  fc.string({ minLength: 5_000, maxLength: 20_000 }),
  fc.json({ depthSize: 'small' }).map((text) => JSON.parse(text) as unknown),
)

const petLike = fc.record(
  {
    name: anyValue,
    categoryId: fc.oneof(anyValue, fc.integer({ min: 1, max: 1000 })),
    status: fc.oneof(anyValue, fc.constantFrom('available', 'pending', 'sold')),
    id: anyValue,
    __proto__: fc.object(),
    constructor: anyValue,
  },
  { requiredKeys: [] },
)

const body = fc.oneof(
  petLike.map((pet) => JSON.stringify(pet)),
  fc
    .record({
      name: fc.string({ minLength: 1, maxLength: 40 }),
      categoryId: fc.integer({ min: 1, max: 99 }),
    })
    .map((pet) => JSON.stringify(pet)),
  hugeInteger.map((big) => `{"name":"Big","categoryId":${big}}`),
  fc.json({ depthSize: 'medium' }),
  fc.string({ maxLength: 200 }),
  fc.constantFrom(
    '',
    '{',
    '[]',
    'null',
    '{"__proto__":{"polluted":true},"name":"x","categoryId":1}',
    '{"a":'.repeat(500),
  ),
)

const path = fc.oneof(
  fc.constant('/v1/pets'),
  fc.constant('/v1/pets/'),
  fc.constant('/v1/store/orders'),
  fc
    .oneof(
      fc.integer({ min: -5, max: 80 }).map(String),
      hugeInteger,
      printable,
      fc.string({ unit: 'grapheme', maxLength: 10 }),
    )
    .map((id) => `/v1/pets/${encodeURIComponent(id)}`),
  printable.map((rest) => `/v1/${encodeURIComponent(rest)}`),
)

const query = fc.array(
  fc.tuple(
    fc.oneof(fc.constantFrom('limit', 'status'), printable),
    fc.oneof(
      fc.constantFrom('1', '20', '100', '0', '101', 'sold'),
      printable,
      hugeInteger,
    ),
  ),
  { maxLength: 3 },
)

const request = fc.record({
  method: fc.constantFrom(
    'GET',
    'GET',
    'POST',
    'POST',
    'PUT',
    'DELETE',
    'PATCH',
    'HEAD',
    'OPTIONS',
  ),
  path,
  query,
  authorization: fc.option(
    fc.oneof(
      fc.constantFrom(...KEYS).map((key) => `Bearer ${key}`),
      printable,
      printable.map((token) => `Bearer ${token}`),
    ),
    { nil: undefined },
  ),
  contentType: fc.option(
    fc.constantFrom(
      'application/json',
      'application/json; charset=utf-8',
      'text/plain',
      'application/x-www-form-urlencoded',
      'application/vnd.api+json',
    ),
    { nil: undefined },
  ),
  scenario: fc.option(
    fc.constantFrom(
      'default',
      'missing-pet',
      'empty-store',
      'expired-key',
      'rate-limited',
      'nope',
      '../scenarios/default.json',
    ),
    { nil: undefined },
  ),
  body: fc.option(body, { nil: undefined }),
})

// Whatever arrives, the sandbox answers with the API's contract, and its data is exactly
// what the accepted requests made it.
test('random requests never crash, always answer the Error contract, and never lose or invent data', async () => {
  await fc.assert(
    fc.asyncProperty(
      fc.array(request, { minLength: 1, maxLength: 25 }),
      async (requests) => {
        const sandbox = createSandbox({
          seed: 3,
          count: 5,
          clock: { now: '2027-01-01T00:00:00Z', frozen: true },
        })
        await sandbox.ready
        const expected: Pet[] = sandbox.db.pets.all().map((pet) => ({ ...pet }))
        for (const spec of requests) {
          const url = new URL(`https://api.example.test${spec.path}`)
          for (const [key, value] of spec.query) url.searchParams.append(key, value)
          const headers = new Headers()
          if (spec.authorization !== undefined)
            headers.set('authorization', spec.authorization)
          if (spec.contentType !== undefined)
            headers.set('content-type', spec.contentType)
          if (spec.scenario !== undefined)
            headers.set('x-sandbox-scenario', spec.scenario)
          const hasBody =
            spec.body !== undefined && spec.method !== 'GET' && spec.method !== 'HEAD'
          const response = await getResponse(
            sandbox.handlers,
            new Request(url, {
              method: spec.method,
              headers,
              ...(hasBody ? { body: spec.body } : {}),
            }),
          )
          expect(response, `${spec.method} ${url}`).toBeDefined()
          const reply = response as Response
          const text = await reply.text()
          // The one 5xx by design: the orders endpoint whose shape the API does not publish.
          const notModelled = reply.status === 501 && url.pathname === '/v1/store/orders'
          if (!notModelled)
            expect(reply.status, `${spec.method} ${url} -> ${text}`).toBeLessThan(500)
          for (const name of [
            'x-ratelimit-limit',
            'x-ratelimit-remaining',
            'x-ratelimit-reset',
          ]) {
            expect(reply.headers.get(name)).toMatch(/^\d+$/)
          }
          if (reply.status >= 400) {
            expect(reply.headers.get('content-type')).toBe('application/json')
            const error = JSON.parse(text)
            expect(Object.keys(error).sort()).toEqual(['code', 'message', 'status'])
            expect(error.status).toBe(reply.status)
            expect(error.message).toMatch(/\w{3,}/)
          }
          const dataScenario = spec.scenario === 'empty-store'
          if (reply.status === 201 && !dataScenario) expected.push(JSON.parse(text))
        }
        expect(sandbox.db.pets.all().map((pet) => ({ ...pet }))).toEqual(expected)
        expect(Object.prototype).not.toHaveProperty('polluted')
        for (const pet of expected)
          expect(
            Object.keys(pet).every((key) =>
              ['id', 'name', 'categoryId', 'status'].includes(key),
            ),
          ).toBe(true)
      },
    ),
    { numRuns: 200 },
  )
})
