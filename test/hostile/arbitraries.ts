import { METHODS } from 'node:http'
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

/**
 * Percent-escapes no decoder takes: a "%" without two hexadecimal digits after it, or
 * escapes that are not UTF-8 (a lone lead byte, a cut sequence, a surrogate half).
 */
export const malformedEscape = fc.constantFrom(
  '%',
  '%Z',
  '%ZZ',
  '%A',
  '%0',
  '%G0',
  '%%',
  '%u0041',
  '%E0%A4%A',
  '%E0%A4',
  '%FF',
  '%C3',
  '%C3%28',
  '%ED%A0%80',
)

/** `parts` with `escape` put into one of them (`which`), at a position of it (`at`). */
function spoil(parts: string[], which: number, at: number, escape: string): string[] {
  const index = which % parts.length
  const part = parts[index] as string
  const position = at % (part.length + 1)
  const spoiled = [...parts]
  spoiled[index] = `${part.slice(0, position)}${escape}${part.slice(position)}`
  return spoiled
}

/** Path segments below a base, one of them holding a malformed escape. */
export const spoiledSegments = fc
  .tuple(
    fc.array(fc.constantFrom('pets', '1', '42', 'store', 'orders', 'x', ''), {
      minLength: 1,
      maxLength: 3,
    }),
    fc.nat(),
    fc.nat(),
    malformedEscape,
  )
  .map(([segments, which, at, escape]) => spoil(segments, which, at, escape).join('/'))

/** A query (without "?") one of whose names or values holds a malformed escape. */
export const spoiledQuery = fc
  .tuple(
    fc.array(
      fc.tuple(
        fc.constantFrom('limit', 'status', 'after', 'x'),
        fc.constantFrom('1', '20', 'sold', ''),
      ),
      { minLength: 1, maxLength: 3 },
    ),
    fc.nat(),
    fc.nat(),
    malformedEscape,
  )
  .map(([pairs, which, at, escape]) => {
    const parts = spoil(pairs.flat(), which, at, escape)
    const joined: string[] = []
    for (let index = 0; index < parts.length; index += 2)
      joined.push(`${parts[index]}=${parts[index + 1]}`)
    return joined.join('&')
  })

/** RFC 9110 `tchar`: the characters of a method token. */
const TCHAR =
  "!#$%&'*+-.^_`|~0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"

/** The methods Node's HTTP parser takes; it refuses any other token. */
export const NODE_METHODS: readonly string[] = METHODS

/** Methods `new Request` refuses (Fetch's forbidden methods, any case). */
export const FORBIDDEN_METHODS = ['CONNECT', 'TRACE', 'TRACK']

/**
 * Any method token a client can send: Node's, Fetch's forbidden ones, a lowercase
 * standard one, or random RFC 9110 tokens.
 */
export const methodToken = fc.oneof(
  fc.constantFrom(...NODE_METHODS, 'TRACK', 'get', 'post', 'Head', 'patch'),
  fc.string({
    unit: fc.constantFrom(...TCHAR),
    minLength: 1,
    maxLength: 12,
  }),
)

/** A method token `new Request` (and so fetch and msw) takes. */
export const fetchableMethod = methodToken.filter(
  (method) => !FORBIDDEN_METHODS.includes(method.toUpperCase()),
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
  spoiledSegments.map((rest) => `/v1/${rest}`),
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
  method: fc.oneof(
    {
      arbitrary: fc.constantFrom(
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
      weight: 4,
    },
    { arbitrary: fetchableMethod, weight: 1 },
  ),
  path,
  query,
  /** A query with a malformed escape, put after `query` as sent (URLSearchParams would encode it). */
  spoiledQuery: fc.option(spoiledQuery, { nil: undefined, freq: 8 }),
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
  // The search setter leaves "%" as it is: the escape reaches the sandbox malformed.
  if (spec.spoiledQuery !== undefined)
    url.search = url.search ? `${url.search}&${spec.spoiledQuery}` : spec.spoiledQuery
  const headers = new Headers()
  if (spec.authorization !== undefined) headers.set('authorization', spec.authorization)
  if (spec.contentType !== undefined) headers.set('content-type', spec.contentType)
  if (spec.scenario !== undefined) headers.set('x-sandbox-scenario', spec.scenario)
  // Fetch spells GET and HEAD in capitals whatever their case, and refuses their bodies.
  const method = spec.method.toUpperCase()
  const hasBody = spec.body !== undefined && method !== 'GET' && method !== 'HEAD'
  return {
    url,
    init: { method: spec.method, headers, ...(hasBody ? { body: spec.body } : {}) },
  }
}

export type RequestSpec = typeof request extends fc.Arbitrary<infer Spec> ? Spec : never

/** Whether a URL's path or query holds an escape no decoder takes (400 invalid_path). */
export function hasMalformedEscape(url: URL): boolean {
  try {
    decodeURIComponent(`${url.pathname}${url.search}`)
    return false
  } catch {
    return true
  }
}

/** The path and query of an origin-form target, of any page of the server; some spoiled. */
export const originTarget = fc
  .tuple(
    fc.constantFrom('/v1', '/__sandbox', '', '/openapi.json', '/demo', '/docs'),
    fc.oneof(
      fc
        .array(
          fc.constantFrom(
            'pets',
            '1',
            'sessions',
            'abc',
            'requests',
            'scenario',
            'clock',
            'reset',
            'store',
            'orders',
            '%41',
            '',
          ),
          { maxLength: 3 },
        )
        .map((segments) => segments.map((segment) => `/${segment}`).join('')),
      spoiledSegments.map((rest) => `/${rest}`),
    ),
    fc.oneof(
      fc.constant(''),
      fc.constantFrom('?limit=1', '?status=sold&limit=2', '?after=0', '?x'),
      spoiledQuery.map((query) => `?${query}`),
    ),
  )
  .map(([base, rest, query]) => `${base}${rest || (base ? '' : '/')}${query}`)

/**
 * A request target in any of its forms (RFC 9112, 3.2): the origin form, the asterisk
 * form, or the absolute form naming this server (`self`, filled in when sent), another
 * host, or this server with user information.
 */
export const requestTarget = fc.oneof(
  { weight: 4, arbitrary: originTarget },
  { weight: 1, arbitrary: fc.constant('*') },
  {
    weight: 2,
    arbitrary: fc
      .tuple(
        fc.constantFrom('http', 'HTTP', 'https', 'ftp'),
        fc.constantFrom('self', 'evil.example', 'user@self', '127.0.0.1:1'),
        originTarget,
      )
      .map(([scheme, authority, target]) => `${scheme}://${authority}${target}`),
  },
)

/** One request line and what goes with it, as a raw socket sends them. */
export const requestLine = fc.record({
  method: methodToken,
  target: requestTarget,
  key: fc.option(fc.constantFrom(...KEYS), { nil: undefined }),
})

export type RequestLineSpec =
  typeof requestLine extends fc.Arbitrary<infer Spec> ? Spec : never

/** The target of a request line spec for a server at `host` (`127.0.0.1:4010`). */
export function targetFor(spec: RequestLineSpec, host: string): string {
  return spec.target.replace(/(?<=:\/\/(?:user@)?)self/, host)
}

/** The bytes of a request line spec for a server at `host`; no body. */
export function toRequestBytes(spec: RequestLineSpec, host: string): string {
  const target = targetFor(spec, host)
  const key = spec.key === undefined ? '' : `Authorization: Bearer ${spec.key}\r\n`
  return `${spec.method} ${target} HTTP/1.1\r\nHost: ${host}\r\n${key}Content-Length: 0\r\nConnection: close\r\n\r\n`
}
