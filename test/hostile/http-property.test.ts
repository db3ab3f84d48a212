import type { Server } from 'node:http'
import { connect } from 'node:net'
import fc from 'fast-check'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { TRANSPORT_LIMITS, type Pet } from 'petstore-sandbox/express'
import { startApp } from '../express/start-app.js'
import {
  hasMalformedEscape,
  NODE_METHODS,
  PROPERTY_SEED,
  request,
  toRequest,
} from './arbitraries.js'
import { hangingRequest, rawRequest, type RawReply } from './raw-http.js'

// The invariants of property.test.ts, over real HTTP: the Express app, Node's parser,
// the body limit and the transport errors are in the path too.

const ENTERPRISE = { authorization: 'Bearer sandbox-enterprise-key' }
const RATE_LIMIT_HEADERS = [
  'x-ratelimit-limit',
  'x-ratelimit-remaining',
  'x-ratelimit-reset',
]

let app: Awaited<ReturnType<typeof startApp>>
beforeAll(async () => {
  app = await startApp({
    seed: 3,
    count: 5,
    clock: { now: '2027-01-01T00:00:00Z', frozen: true },
  })
})
afterAll(() => app?.close())

const listOverHttp = async () => {
  const response = await fetch(`${app.origin}/v1/pets?limit=100`, { headers: ENTERPRISE })
  expect(response.status).toBe(200)
  return (await response.json()) as Pet[]
}

/** Resolves once `server` holds `count` connections (polled: there is no event). */
async function connections(server: Server, count: number) {
  for (let tries = 0; ; tries++) {
    const open = await new Promise<number>((resolve, reject) =>
      server.getConnections((error, value) => (error ? reject(error) : resolve(value))),
    )
    if (open === count) return
    if (tries > 400) throw new Error(`${open} connections, expected ${count}`)
    await new Promise((resolve) => setTimeout(resolve, 5))
  }
}

const expectErrorBody = (status: number, contentType: string | null, text: string) => {
  expect(contentType).toBe('application/json')
  const error = JSON.parse(text)
  expect(Object.keys(error).sort()).toEqual(['code', 'message', 'status'])
  expect(error.status).toBe(status)
  expect(error.message).toMatch(/\w{3,}/)
  expect(error.message).not.toMatch(/\n\s+at /)
  return error as { code: string; message: string; status: number }
}

test('random requests over HTTP never crash, always answer the Error contract, and never lose or invent data', async () => {
  await fc.assert(
    fc.asyncProperty(
      fc.array(request, { minLength: 1, maxLength: 25 }),
      async (requests) => {
        // One server for every run: a reset brings back the seeded data, the frozen
        // clock, fresh rate-limit windows and the startup scenario.
        await app.sandbox.reset()
        const expected = await listOverHttp()
        for (const spec of requests) {
          const { url, init } = toRequest(spec, app.origin)
          // Fetch spells the standard methods in capitals ("Head" is HEAD).
          const method = new Request(url, init).method
          // Node's parser refuses a method it does not know at once and hangs up: a
          // body fetch would still be sending then is left out.
          const parsed = NODE_METHODS.includes(method)
          if (!parsed) delete init.body
          // Otherwise, refused before routing: the method Node refuses comes first (405).
          const malformed = parsed && hasMalformedEscape(url)
          const reply = await fetch(url, { ...init, redirect: 'manual' })
          const text = await reply.text()
          const label = `${spec.method} ${url} -> ${reply.status} ${text.slice(0, 300)}`
          const notModelled = reply.status === 501 && url.pathname === '/v1/store/orders'
          if (!notModelled) expect(reply.status, label).toBeLessThan(500)
          // The URL parser folds dot segments ("/v1/.." is "/"): outside /v1 the landing
          // page and the JSON 404 answer, without rate-limit headers.
          const api = url.pathname === '/v1' || url.pathname.startsWith('/v1/')
          if (api) {
            for (const name of RATE_LIMIT_HEADERS)
              expect(reply.headers.get(name), `${name}: ${label}`).toMatch(/^\d+$/)
          }
          if (malformed) expect(reply.status, label).toBe(400)
          if (reply.status >= 400) {
            expect(reply.headers.get('content-type'), label).toBe('application/json')
            // HEAD answers carry no body over HTTP.
            if (method !== 'HEAD') {
              const error = expectErrorBody(reply.status, 'application/json', text)
              if (malformed) expect(error.code, label).toBe('invalid_path')
            }
          }
          if (reply.status === 201 && spec.scenario !== 'empty-store')
            expected.push(JSON.parse(text))
        }
        expect(await listOverHttp()).toEqual(expected)
        expect(app.sandbox.db.pets.all().map((pet) => ({ ...pet }))).toEqual(expected)
        expect(Object.prototype).not.toHaveProperty('polluted')
      },
    ),
    { numRuns: 100, seed: PROPERTY_SEED },
  )
})

const AUTH = 'Authorization: Bearer sandbox-enterprise-key\r\n'
const head = (lines: string) => `${lines}Host: 127.0.0.1\r\n${AUTH}`
const invalidUtf8 = Buffer.concat([
  Buffer.from('{"name":"'),
  Buffer.from([0xff, 0xfe, 0xc3]),
  Buffer.from('","categoryId":1}'),
])

// [what, bytes, status, code]
const RAW_CASES = (
  [
    [
      'a JSON body with invalid UTF-8',
      [
        `${head('POST /v1/pets HTTP/1.1\r\n')}Content-Type: application/json\r\nContent-Length: ${invalidUtf8.length}\r\n\r\n`,
        invalidUtf8,
      ],
      400,
      'invalid_json',
    ],
    [
      'an Authorization header with invalid UTF-8',
      [
        Buffer.concat([
          Buffer.from(
            'GET /v1/pets HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer ',
          ),
          Buffer.from([0xff, 0xc3, 0x28]),
          Buffer.from('\r\n\r\n'),
        ]),
      ],
      401,
      'malformed_authorization',
    ],
    [
      'a raw 0xFF byte in the path',
      [
        Buffer.concat([
          Buffer.from('GET /v1/pets/'),
          Buffer.from([0xff]),
          Buffer.from(` HTTP/1.1\r\nHost: 127.0.0.1\r\n${AUTH}\r\n`),
        ]),
      ],
      400,
      'bad_request',
    ],
    [
      'a header line of 20 KiB',
      [`${head('GET /v1/pets HTTP/1.1\r\n')}X-Big: ${'a'.repeat(20 * 1024)}\r\n\r\n`],
      431,
      'request_header_fields_too_large',
    ],
    [
      'a request line of 20 KiB',
      [`${head(`GET /v1/pets?q=${'a'.repeat(20 * 1024)} HTTP/1.1\r\n`)}\r\n`],
      431,
      'request_header_fields_too_large',
    ],
    [
      '3,000 small headers',
      [
        `${head('GET /v1/pets HTTP/1.1\r\n')}${Array.from({ length: 3000 }, (_, index) => `x-${index}: 1\r\n`).join('')}\r\n`,
      ],
      431,
      'request_header_fields_too_large',
    ],
    [
      'a Content-Length of 23 digits',
      [
        `${head('POST /v1/pets HTTP/1.1\r\n')}Content-Type: application/json\r\nContent-Length: 99999999999999999999999\r\n\r\n{}`,
      ],
      400,
      'bad_request',
    ],
    [
      'a Content-Length of 2^53 + 1',
      [
        `${head('POST /v1/pets HTTP/1.1\r\n')}Content-Type: application/json\r\nContent-Length: 9007199254740993\r\n\r\n{"name":`,
      ],
      413,
      'payload_too_large',
    ],
    [
      'a negative Content-Length',
      [`${head('POST /v1/pets HTTP/1.1\r\n')}Content-Length: -1\r\n\r\n`],
      400,
      'bad_request',
    ],
    [
      'two different Content-Lengths',
      [
        `${head('POST /v1/pets HTTP/1.1\r\n')}Content-Length: 2\r\nContent-Length: 3\r\n\r\n{}`,
      ],
      400,
      'bad_request',
    ],
    [
      'Content-Length beside Transfer-Encoding: chunked (request smuggling)',
      [
        `${head('POST /v1/pets HTTP/1.1\r\n')}Content-Length: 5\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n`,
      ],
      400,
      'bad_request',
    ],
    [
      'a chunk size that is not hexadecimal',
      [
        `${head('POST /v1/pets HTTP/1.1\r\n')}Content-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n{}\r\n0\r\n\r\n`,
      ],
      400,
      'bad_request',
    ],
    [
      'a NUL byte in the request line',
      ['GET /v1/pets\0 HTTP/1.1\r\nHost: x\r\n\r\n'],
      400,
      'bad_request',
    ],
    ['a request line that is not HTTP', ['HELLO THERE\r\n\r\n'], 400, 'bad_request'],
    [
      'an HTTP/1.1 request without Host',
      [`GET /v1/pets HTTP/1.1\r\n${AUTH}\r\n`],
      400,
      'bad_request',
    ],
  ] as Array<[string, Array<string | Buffer>, number, string]>
).map(([what, chunks, status, code]) => ({ what, chunks, status, code }))

describe('bytes fetch refuses to send get the Error body too', () => {
  test.each(RAW_CASES)('$what: $status $code', async ({ chunks, status, code }) => {
    await app.sandbox.reset()
    const reply = await rawRequest(app.port, chunks)
    expect(reply.status, reply.body).toBe(status)
    const error = expectErrorBody(
      status,
      reply.headers['content-type'] ?? null,
      reply.body,
    )
    expect(error.code).toBe(code)
    expect(reply.headers['access-control-allow-origin']).toBe('*')
    // Nothing was created, and the server answers the next client as usual.
    expect(await listOverHttp()).toHaveLength(5)
  })
})

describe('slow clients', () => {
  test('clients that never finish their request do not hold up the others', async () => {
    const post = `${head('POST /v1/pets HTTP/1.1\r\n')}Content-Type: application/json\r\n`
    const hanging = await Promise.all(
      Array.from({ length: 20 }, (_, index) =>
        hangingRequest(
          app.port,
          [
            // A chunked body never finished.
            [`${post}Transfer-Encoding: chunked\r\n\r\n5\r\n{"nam\r\n`],
            // A body shorter than its Content-Length.
            [`${post}Content-Length: 100\r\n\r\n{"name":"Rex"`],
            // Headers never finished (slowloris).
            ['GET /v1/pets HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: 1\r\n'],
            // Only half a request line.
            ['GET /v1/pe'],
          ][index % 4] as string[],
        ),
      ),
    )
    try {
      const started = performance.now()
      const replies = await Promise.all(
        Array.from({ length: 50 }, () =>
          fetch(`${app.origin}/v1/pets?limit=1`, { headers: ENTERPRISE }),
        ),
      )
      expect(replies.map((reply) => reply.status)).toEqual(Array(50).fill(200))
      expect(performance.now() - started).toBeLessThan(2000)
      expect(app.sandbox.db.pets.all()).toHaveLength(5)
    } finally {
      for (const { socket } of hanging) socket.destroy()
    }
  })

  test('a client that hangs up in the middle of its body is not reported as an internal error', async () => {
    const errors: unknown[] = []
    const watched = await startApp({ count: 5, onError: (error) => errors.push(error) })
    try {
      const socket = connect(watched.port, '127.0.0.1')
      socket.on('error', () => {})
      socket.write(
        `${head('POST /v1/pets HTTP/1.1\r\n')}Content-Type: application/json\r\nContent-Length: 100\r\nExpect: 100-continue\r\n\r\n`,
      )
      // "100 Continue" comes once the app has the request and waits for the body.
      await new Promise((resolve) => socket.once('data', resolve))
      socket.write('{"name":')
      socket.destroy()
      await connections(watched.server, 0)
      await new Promise((resolve) => setImmediate(resolve))
      expect(errors).toEqual([])
      expect(watched.sandbox.db.pets.all()).toHaveLength(5)
    } finally {
      await watched.close()
    }
  })

  test(`a request not finished within the time limit gets 408 with the Error body, promptly`, async () => {
    // The limits are read when a server starts listening; shorten them for this server
    // only, so the test waits well under a second instead of 10 s.
    const saved = { ...TRANSPORT_LIMITS }
    TRANSPORT_LIMITS.headersTimeoutMs = 300
    TRANSPORT_LIMITS.requestTimeoutMs = 600
    let quick: Awaited<ReturnType<typeof startApp>>
    const errors: unknown[] = []
    try {
      quick = await startApp({ count: 5, onError: (error) => errors.push(error) })
    } finally {
      Object.assign(TRANSPORT_LIMITS, saved)
    }
    try {
      const started = performance.now()
      const [headers, body] = await Promise.all([
        hangingRequest(quick.port, ['GET /v1/pets HTTP/1.1\r\nHost: 127.0.0.1\r\n']),
        hangingRequest(quick.port, [
          `${head('POST /v1/pets HTTP/1.1\r\n')}Content-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n5\r\n{"nam\r\n`,
        ]),
      ])
      const replies: RawReply[] = await Promise.all([headers.reply, body.reply])
      const elapsed = performance.now() - started
      for (const reply of replies) {
        expect(reply.status, reply.body).toBe(408)
        expect(
          expectErrorBody(408, reply.headers['content-type'] ?? null, reply.body).code,
        ).toBe('request_timeout')
      }
      // The limit plus at most one check of the connections (not Node's default 30 s).
      expect(elapsed).toBeLessThan(3000)
      expect(quick.sandbox.db.pets.all()).toHaveLength(5)
      // A timed-out client is not an internal error of the server.
      await connections(quick.server, 0)
      await new Promise((resolve) => setImmediate(resolve))
      expect(errors).toEqual([])
    } finally {
      await quick.close()
    }
  })
})
