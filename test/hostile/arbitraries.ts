import fc from 'fast-check'

// The random requests of the hostile tests, shared by the in-process run
// (property.test.ts) and the one over real HTTP (http-property.test.ts).

/**
 * The seed of the property runs: fixed, so CI is reproducible; set FC_SEED to explore
 * other inputs locally (a failure prints the seed and the shrunk counterexample).
 */
export const PROPERTY_SEED = Number(process.env.FC_SEED ?? 20261122)

export const KEYS = [
  'sandbox-free-key',
  'sandbox-pro-key',
  'sandbox-enterprise-key',
  'sandbox-expired-key',
]
export const printable = fc.string({
  unit: fc.integer({ min: 0x20, max: 0x7e }).map((code) => String.fromCharCode(code)),
  maxLength: 60,
})
export const hugeInteger = fc.bigInt({ min: 2n ** 53n - 3n, max: 2n ** 70n }).map(String)

export const anyValue: fc.Arbitrary<unknown> = fc.oneof(
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

export const petLike = fc.record(
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

export const body = fc.oneof(
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

export const path = fc.oneof(
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

export const query = fc.array(
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

export const request = fc.record({
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

/** A generated request as a URL and the `RequestInit` fetch or `new Request` take. */
export function toRequest(
  spec: RequestSpec,
  origin: string,
): { url: URL; init: RequestInit } {
  const url = new URL(`${origin}${spec.path}`)
  for (const [key, value] of spec.query) url.searchParams.append(key, value)
  const headers = new Headers()
  if (spec.authorization !== undefined) headers.set('authorization', spec.authorization)
  if (spec.contentType !== undefined) headers.set('content-type', spec.contentType)
  if (spec.scenario !== undefined) headers.set('x-sandbox-scenario', spec.scenario)
  const hasBody =
    spec.body !== undefined && spec.method !== 'GET' && spec.method !== 'HEAD'
  return {
    url,
    init: { method: spec.method, headers, ...(hasBody ? { body: spec.body } : {}) },
  }
}

export type RequestSpec = typeof request extends fc.Arbitrary<infer Spec> ? Spec : never
