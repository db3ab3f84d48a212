import { afterAll, beforeAll, beforeEach, describe, expect, test } from 'vitest'
import { openApiProblems } from './openapi.js'
import { endRequestsWithEachTest, send, type SendOptions } from './send.js'
import { notAnError } from '../../src/check/judge.js'
import { rateHeaderProblem } from '../../src/check/read-checks.js'

/** A running sandbox the suite talks to over `fetch`, whatever the runtime. */
export interface ContractTarget {
  /** e.g. `https://api.example.test` (msw in-process) or `http://127.0.0.1:4321`. */
  origin: string
  close(): Promise<void>
  /**
   * Resolves once the runtime answered every request it got, those whose client gave up
   * (aborted) included; for a runtime that keeps working on them (the browser relay).
   */
  idle?(): Promise<void>
}

export interface Reply {
  status: number
  headers: Headers
  body: any
}

const FREE = 'sandbox-free-key'
const PRO = 'sandbox-pro-key'
const BUSINESS = 'sandbox-business-key'
/** Half a minute into a UTC minute, so window arithmetic is easy to read. */
const T0 = '2027-03-01T10:00:30.000Z'
const NEXT_MINUTE = Date.parse('2027-03-01T10:01:00.000Z') / 1000
const NEXT_DAY = Date.parse('2027-03-02T00:00:00.000Z') / 1000
/**
 * The timeout of a test that sends hundreds of requests: the browser runtime relays each
 * through a page (the 1,000-a-day test took 28 s on a loaded 2-core machine), so room for
 * a machine four times as busy.
 */
const MANY_REQUESTS_MS = 120_000

/**
 * The API checks every runtime must pass: each line of the seed's Endpoints,
 * Authentication, Errors, Limits and Versioning sections, through plain HTTP and the
 * control endpoints only. Every response is also checked against the OpenAPI document.
 */
export function defineContractSuite(
  runtime: string,
  start: () => Promise<ContractTarget>,
) {
  describe(`contract (${runtime})`, () => {
    let target: ContractTarget
    endRequestsWithEachTest(() => target?.idle?.())

    async function call(
      method: string,
      path: string,
      options: Omit<SendOptions, 'session'> = {},
    ): Promise<Reply> {
      const { response, text } = await send(target.origin, method, path, options)
      let parsed: unknown = text
      if (response.headers.get('content-type')?.startsWith('application/json'))
        parsed = JSON.parse(text)
      const reply = { status: response.status, headers: response.headers, body: parsed }
      const { pathname } = new URL(path, 'http://x')
      // The rules every answer keeps are the deployment check's own definitions
      // (src/check/): what `petstore-sandbox check` holds a live service to, the
      // sandbox is held to here. The reset may be any time: the suite moves the clock.
      if (pathname.startsWith('/v1')) {
        expect(
          rateHeaderProblem(response.headers, Number.NEGATIVE_INFINITY),
          `X-RateLimit-* on ${method} ${path} (${response.status})`,
        ).toBeUndefined()
      }
      if (response.status >= 400) {
        expect(response.headers.get('content-type')).toMatch(/^application\/json/)
        expect(notAnError(parsed, response.status), `${method} ${path}`).toBeUndefined()
        expect((parsed as { message: string }).message.length).toBeGreaterThan(20)
      }
      if (response.status === 429)
        expect(response.headers.get('retry-after')).toMatch(/^\d+$/)
      expect(
        openApiProblems(method, pathname, response.status, response.headers, parsed),
      ).toEqual([])
      return reply
    }

    const control = (method: string, path: string, json?: unknown) =>
      call(method, path, { key: null, json })
    const advance = (seconds: number) =>
      control('POST', '/__sandbox/clock', { advanceSeconds: seconds })
    const rate = (reply: Reply) => ({
      limit: Number(reply.headers.get('x-ratelimit-limit')),
      remaining: Number(reply.headers.get('x-ratelimit-remaining')),
      reset: Number(reply.headers.get('x-ratelimit-reset')),
    })
    async function spend(count: number, key = FREE) {
      let last: Reply | undefined
      for (let index = 0; index < count; index++)
        last = await call('GET', '/v1/pets?limit=1', { key })
      return last as Reply
    }

    beforeAll(async () => {
      target = await start()
    })
    afterAll(async () => {
      await target?.close()
    })
    beforeEach(async () => {
      expect((await control('POST', '/__sandbox/reset')).status).toBe(200)
      expect(
        (await control('POST', '/__sandbox/clock', { freeze: true, now: T0 })).status,
      ).toBe(200)
    })

    describe('listPets: GET /v1/pets', () => {
      test('answers 200 with a bare array of 20 pets by default, ordered by id', async () => {
        const reply = await call('GET', '/v1/pets')
        expect(reply.status).toBe(200)
        expect(Array.isArray(reply.body)).toBe(true)
        expect(reply.body).toHaveLength(20)
        const ids = reply.body.map((pet: { id: number }) => pet.id)
        expect(ids).toEqual([...ids].sort((a, b) => a - b))
        expect(new Set(ids).size).toBe(20)
      })

      test('limit returns at most that many, 1 and 100 included', async () => {
        expect((await call('GET', '/v1/pets?limit=5')).body).toHaveLength(5)
        expect((await call('GET', '/v1/pets?limit=1')).body).toHaveLength(1)
        // 50 pets are seeded: limit=100 returns them all.
        expect((await call('GET', '/v1/pets?limit=100')).body).toHaveLength(50)
      })

      test.each(['0', '101', '-1', 'abc', '2.5', ''])(
        'limit=%s is 400 validation_failed naming limit',
        async (value) => {
          const reply = await call('GET', `/v1/pets?limit=${value}`)
          expect(reply.status).toBe(400)
          expect(reply.body.code).toBe('validation_failed')
          expect(reply.body.message).toMatch(/limit must be an integer from 1 to 100/)
        },
      )

      test('status filters to that status only', async () => {
        for (const status of ['available', 'pending', 'sold']) {
          const reply = await call('GET', `/v1/pets?status=${status}&limit=100`)
          expect(reply.status).toBe(200)
          expect(reply.body.length).toBeGreaterThan(0)
          expect(
            reply.body.every((pet: { status: string }) => pet.status === status),
          ).toBe(true)
        }
      })

      test('an unknown status is 400 validation_failed listing the allowed values', async () => {
        const reply = await call('GET', '/v1/pets?status=adopted')
        expect(reply.status).toBe(400)
        expect(reply.body.code).toBe('validation_failed')
        expect(reply.body.message).toContain(
          'status must be one of available, pending, sold',
        )
      })

      test('without a key it is 401', async () => {
        const reply = await call('GET', '/v1/pets', { key: null })
        expect(reply.status).toBe(401)
        expect(reply.body.code).toBe('missing_api_key')
      })
    })

    describe('createPet: POST /v1/pets', () => {
      test('answers 201 with the Pet including an assigned id, then lists and gets it', async () => {
        const created = await call('POST', '/v1/pets', {
          json: { name: 'Rex', categoryId: 2, status: 'available' },
        })
        expect(created.status).toBe(201)
        expect(created.body).toEqual({
          id: 51,
          name: 'Rex',
          categoryId: 2,
          status: 'available',
        })
        const listed = await call('GET', '/v1/pets?limit=100')
        expect(listed.body.at(-1)).toEqual(created.body)
        const fetched = await call('GET', '/v1/pets/51')
        expect(fetched.body).toEqual(created.body)
      })

      test('ids are unique and increasing', async () => {
        const first = await call('POST', '/v1/pets', {
          json: { name: 'A', categoryId: 1 },
        })
        const second = await call('POST', '/v1/pets', {
          json: { name: 'B', categoryId: 1 },
        })
        expect(second.body.id).toBeGreaterThan(first.body.id)
      })

      test('status is optional: not supplied, it is absent from the Pet', async () => {
        const created = await call('POST', '/v1/pets', {
          json: { name: 'Tom', categoryId: 3 },
        })
        expect(created.status).toBe(201)
        expect(created.body).not.toHaveProperty('status')
        expect(
          (await call('GET', `/v1/pets/${created.body.id}`)).body,
        ).not.toHaveProperty('status')
      })

      test('unknown fields are ignored and never stored', async () => {
        const created = await call('POST', '/v1/pets', {
          json: {
            name: 'Kit',
            categoryId: 1,
            id: 999,
            owner: 'me',
            __proto__: { admin: true },
          },
        })
        expect(created.status).toBe(201)
        expect(created.body).toEqual({ id: 51, name: 'Kit', categoryId: 1 })
      })

      test.each([
        [{ categoryId: 1 }, /name is required \(string\)/],
        // The seed's type names: categoryId is an integer, not any number.
        [{ name: 'Rex' }, /categoryId is required \(integer\)/],
        [{ name: '', categoryId: 1 }, /name must not be empty/],
        [{ name: 42, categoryId: 1 }, /name must be a string/],
        [
          { name: 'Rex', categoryId: '1' },
          /categoryId must be an integer, got the string "1"/,
        ],
        [{ name: 'Rex', categoryId: null }, /categoryId must be an integer, got null/],
        [{ name: 'Rex', categoryId: 1.5 }, /categoryId must be an integer/],
        [{ name: 'Rex', categoryId: 0 }, /categoryId must be greater than 0/],
        [
          { name: 'Rex', categoryId: 1, status: 'adopted' },
          /status must be one of "available", "pending", "sold"/,
        ],
        [{ name: 'Rex', categoryId: 1, status: null }, /status must be one of/],
        [[{ name: 'Rex', categoryId: 1 }], /must be a JSON object/],
      ])(
        '%j is 400 validation_failed naming the field and the rule',
        async (json, message) => {
          const reply = await call('POST', '/v1/pets', { json })
          expect(reply.status).toBe(400)
          expect(reply.body.code).toBe('validation_failed')
          expect(reply.body.message).toMatch(message)
          expect((await call('GET', '/__sandbox', { key: null })).body.counts.pets).toBe(
            50,
          )
        },
      )

      test('integers past 2^53 are rejected rather than rounded', async () => {
        const reply = await call('POST', '/v1/pets', {
          body: '{"name":"Big","categoryId":9007199254740993}',
          headers: { 'content-type': 'application/json' },
        })
        expect(reply.status).toBe(400)
        expect(reply.body.message).toMatch(/categoryId/)
      })

      test('a missing body is 400, malformed JSON is 400 invalid_json', async () => {
        const empty = await call('POST', '/v1/pets', {
          headers: { 'content-type': 'application/json' },
          body: '',
        })
        expect(empty.status).toBe(400)
        expect(empty.body.code).toBe('validation_failed')
        const broken = await call('POST', '/v1/pets', {
          headers: { 'content-type': 'application/json' },
          body: '{"name": "Rex",',
        })
        expect(broken.status).toBe(400)
        expect(broken.body.code).toBe('invalid_json')
      })

      test('a body that is not application/json is 415', async () => {
        const reply = await call('POST', '/v1/pets', {
          headers: { 'content-type': 'text/plain' },
          body: 'name=Rex',
        })
        expect(reply.status).toBe(415)
        expect(reply.body.code).toBe('unsupported_media_type')
        const charset = await call('POST', '/v1/pets', {
          headers: { 'content-type': 'application/json; charset=utf-8' },
          body: '{"name":"Rex","categoryId":1}',
        })
        expect(charset.status).toBe(201)
      })

      test('only application/json is a JSON body: +json types are 415, saying what was sent and what is expected', async () => {
        const before = (await control('GET', '/__sandbox')).body.counts
        for (const type of [
          'application/merge-patch+json',
          'application/vnd.api+json',
          'application/problem+json',
          'text/json',
          'application/jsonx',
        ]) {
          const reply = await call('POST', '/v1/pets', {
            headers: { 'content-type': type },
            body: '{"name":"Rex","categoryId":1}',
          })
          expect(reply.status, type).toBe(415)
          expect(reply.body.code).toBe('unsupported_media_type')
          expect(reply.body.message).toContain(`got "${type}"`)
          expect(reply.body.message).toContain('"Content-Type: application/json"')
        }
        expect((await control('GET', '/__sandbox')).body.counts).toEqual(before)
        for (const type of [
          'Application/JSON',
          'application/json;charset=UTF-8',
          'application/json ; charset="utf-8"',
        ]) {
          const reply = await call('POST', '/v1/pets', {
            headers: { 'content-type': type },
            body: '{"name":"Rex","categoryId":1}',
          })
          expect(reply.status, type).toBe(201)
        }
      })

      test('without a valid key it is 401', async () => {
        const reply = await call('POST', '/v1/pets', {
          key: 'nope',
          json: { name: 'Rex', categoryId: 1 },
        })
        expect(reply.status).toBe(401)
        expect(reply.body.code).toBe('invalid_api_key')
      })
    })

    describe('getPet: GET /v1/pets/{petId} (deprecated)', () => {
      test('answers 200 with the Pet', async () => {
        const list = await call('GET', '/v1/pets?limit=3')
        const reply = await call('GET', '/v1/pets/3')
        expect(reply.status).toBe(200)
        expect(reply.body).toEqual(list.body[2])
      })

      test('an unknown id is 404 not_found', async () => {
        for (const id of ['9999', '0', '-5']) {
          const reply = await call('GET', `/v1/pets/${id}`)
          expect(reply.status).toBe(404)
          expect(reply.body.code).toBe('not_found')
        }
      })

      test.each(['abc', '1.5', '1e3', '9007199254740993'])(
        'petId %s is 400 validation_failed',
        async (id) => {
          const reply = await call('GET', `/v1/pets/${id}`)
          expect(reply.status).toBe(400)
          expect(reply.body.code).toBe('validation_failed')
          expect(reply.body.message).toMatch(/petId/)
        },
      )

      test('every response carries Deprecation, Sunset (5 December 2030) and a Link to GET /v1/pets', async () => {
        for (const [path, key] of [
          ['/v1/pets/1', FREE],
          ['/v1/pets/9999', FREE],
          ['/v1/pets/1', null],
        ] as const) {
          const reply = await call('GET', path, { key })
          expect(reply.headers.get('deprecation')).toMatch(/^@\d+$/)
          expect(reply.headers.get('sunset')).toBe('Thu, 05 Dec 2030 00:00:00 GMT')
          expect(reply.headers.get('link')).toBe('</v1/pets>; rel="successor-version"')
        }
        expect((await call('GET', '/v1/pets')).headers.get('deprecation')).toBeNull()
      })

      test('once the clock passes 5 December 2030 it is 410 endpoint_removed naming the replacement', async () => {
        await control('POST', '/__sandbox/clock', { now: '2030-12-04T23:59:59Z' })
        expect((await call('GET', '/v1/pets/1')).status).toBe(200)
        await advance(1)
        const reply = await call('GET', '/v1/pets/1')
        expect(reply.status).toBe(410)
        expect(reply.body.code).toBe('endpoint_removed')
        expect(reply.body.message).toContain('GET /v1/pets with the status filter')
      })

      test('without a key it is 401', async () => {
        expect((await call('GET', '/v1/pets/1', { key: null })).status).toBe(401)
      })
    })

    describe('other paths under /v1', () => {
      test('GET /v1/store/orders is 501 not_implemented: the seed shows no shape', async () => {
        const reply = await call('GET', '/v1/store/orders')
        expect(reply.status).toBe(501)
        expect(reply.body.code).toBe('not_implemented')
      })

      test('an unknown path is a JSON 404, a wrong method a 405 with Allow', async () => {
        const unknown = await call('GET', '/v1/animals')
        expect(unknown.status).toBe(404)
        expect(unknown.body.code).toBe('not_found')
        const slash = await call('GET', '/v1/pets/')
        expect(slash.body.message).toContain('Did you mean /v1/pets (no trailing slash)?')
        // The base itself has no endpoint: no hint that leads to another 404.
        const base = await call('GET', '/v1/')
        expect(base.status).toBe(404)
        expect(base.body.message).not.toContain('Did you mean')
        const unknownSlash = await call('GET', '/v1/animals/')
        expect(unknownSlash.body.message).not.toContain('Did you mean')
        // The control API the same way.
        const clock = await control('GET', '/__sandbox/clock/')
        expect(clock.status).toBe(404)
        expect(clock.body.message).toContain(
          'Did you mean /__sandbox/clock (no trailing slash)?',
        )
        const nothing = await control('GET', '/__sandbox/nothing/')
        expect(nothing.body.message).not.toContain('Did you mean')
        const wrong = await call('DELETE', '/v1/pets/1')
        expect(wrong.status).toBe(405)
        expect(wrong.body.code).toBe('method_not_allowed')
        expect(wrong.headers.get('allow')).toBe('GET, HEAD')
        expect((await call('PUT', '/v1/pets')).headers.get('allow')).toBe(
          'GET, HEAD, POST',
        )
      })

      test('a method the path does not take is 405 with Allow before authentication (TRACE was 401 without a key)', async () => {
        // TRACE itself no Fetch client sends (the standalone server's tests send it raw);
        // PROPFIND, PUT and DELETE are the same case through fetch, in every runtime.
        for (const key of [null, 'not-a-key', 'sandbox-expired-key']) {
          for (const [method, path, allow] of [
            ['PROPFIND', '/v1/pets', 'GET, HEAD, POST'],
            ['PUT', '/v1/pets', 'GET, HEAD, POST'],
            ['DELETE', '/v1/pets/1', 'GET, HEAD'],
          ] as const) {
            const reply = await call(method, path, { key })
            expect(reply.status, `${method} ${path} with ${key}`).toBe(405)
            expect(reply.body.code).toBe('method_not_allowed')
            expect(reply.headers.get('allow')).toBe(allow)
          }
        }
        // A valid key's request still counts, as every /v1 request with one does.
        const before = rate(await call('GET', '/v1/pets?limit=1')).remaining
        expect(rate(await call('DELETE', '/v1/pets/1')).remaining).toBe(before - 1)
        // An unknown path is still 401 first: only a path that exists knows its methods.
        expect((await call('PROPFIND', '/v1/animals', { key: null })).status).toBe(401)
      })
    })

    describe('authentication', () => {
      test.each([
        [{}, 'missing_api_key'],
        [{ authorization: 'Basic dXNlcjpwYXNz' }, 'malformed_authorization'],
        [{ authorization: 'Bearer' }, 'malformed_authorization'],
        [{ authorization: 'sandbox-free-key' }, 'malformed_authorization'],
        [{ authorization: 'Bearer not-a-key' }, 'invalid_api_key'],
        [{ authorization: 'Bearer sandbox-expired-key' }, 'expired_api_key'],
      ])('%j gives 401 with code %s on every operation', async (headers, code) => {
        for (const [method, path] of [
          ['GET', '/v1/pets'],
          ['POST', '/v1/pets'],
          ['GET', '/v1/pets/1'],
        ]) {
          const reply = await call(method as string, path as string, {
            key: null,
            headers,
            json: method === 'POST' ? { name: 'x', categoryId: 1 } : undefined,
          })
          expect(reply.status).toBe(401)
          expect(reply.body.code).toBe(code)
        }
      })

      test('nothing of an Authorization value is echoed, in the answer or the journal, unless it is a demo key', async () => {
        const secret = 'sk_live_51HxSECRETab0123456789'
        for (const authorization of [
          secret,
          `Token ${secret}`,
          `Bearer: ${secret}`,
          `Bearer ${secret.slice(0, 12)} ${secret.slice(12)}`,
          `Bearer ${secret}`,
        ]) {
          const reply = await call('GET', '/v1/pets', {
            key: null,
            headers: { authorization },
          })
          expect(reply.status, authorization).toBe(401)
          expect(JSON.stringify(reply.body), authorization).not.toMatch(/sk_live|SECRET/)
          if (reply.body.code === 'malformed_authorization')
            expect(reply.body.message).toContain('"Bearer <API_KEY>"')
        }
        const journal = await control('GET', '/__sandbox/requests')
        expect(journal.body.requests).toHaveLength(5)
        expect(JSON.stringify(journal.body)).not.toMatch(/sk_live|SECRET/)
        // A demo key is public: naming it shows the fix.
        const demo = await call('GET', '/v1/pets', {
          key: null,
          headers: { authorization: FREE },
        })
        expect(demo.body.code).toBe('malformed_authorization')
        expect(demo.body.message).toContain(`Send "Authorization: Bearer ${FREE}".`)
      })

      test('the scheme name is case-insensitive, as HTTP auth schemes are', async () => {
        expect(
          (
            await call('GET', '/v1/pets', {
              key: null,
              headers: { authorization: 'bearer sandbox-free-key' },
            })
          ).status,
        ).toBe(200)
      })

      test('every plan key works', async () => {
        for (const key of [FREE, PRO, BUSINESS, 'sandbox-enterprise-key']) {
          expect((await call('GET', '/v1/pets?limit=1', { key })).status).toBe(200)
        }
      })
    })

    describe('rate limits', () => {
      test('every /v1 response carries the headers; Remaining counts down in the minute window', async () => {
        const first = await call('GET', '/v1/pets')
        expect(rate(first)).toEqual({ limit: 60, remaining: 59, reset: NEXT_MINUTE })
        const second = await call('GET', '/v1/pets/1')
        expect(rate(second).remaining).toBe(58)
        const error = await call('GET', '/v1/pets?limit=0')
        expect(rate(error).remaining).toBe(57)
      })

      test('requests without a valid key are not counted and show the Free window untouched', async () => {
        const reply = await call('GET', '/v1/pets', { key: null })
        expect(rate(reply)).toEqual({ limit: 60, remaining: 60, reset: NEXT_MINUTE })
        expect(rate(await call('GET', '/v1/pets')).remaining).toBe(59)
      })

      test('Free: the 61st request of a minute is 429 with Retry-After, the next minute is open again', async () => {
        const last = await spend(60)
        expect(rate(last).remaining).toBe(0)
        const over = await call('GET', '/v1/pets')
        expect(over.status).toBe(429)
        expect(over.body.code).toBe('rate_limit_exceeded')
        expect(over.headers.get('retry-after')).toBe('30')
        expect(rate(over)).toEqual({ limit: 60, remaining: 0, reset: NEXT_MINUTE })
        await advance(30)
        const again = await call('GET', '/v1/pets')
        expect(again.status).toBe(200)
        expect(rate(again).remaining).toBe(59)
      })

      test(
        'Pro allows 300 a minute and Business shows 1,000',
        async () => {
          const last = await spend(300, PRO)
          expect(rate(last)).toMatchObject({ limit: 300, remaining: 0 })
          expect((await call('GET', '/v1/pets', { key: PRO })).status).toBe(429)
          expect(rate(await call('GET', '/v1/pets', { key: BUSINESS }))).toMatchObject({
            limit: 1000,
            remaining: 999,
          })
        },
        MANY_REQUESTS_MS,
      )

      test(
        'Free: 1,000 a day; the headers switch to the day window when it is nearer to exhaustion',
        async () => {
          for (let minute = 0; minute < 16; minute++) {
            await spend(60)
            await advance(60)
          }
          const near = await spend(10)
          expect(rate(near)).toEqual({ limit: 1000, remaining: 30, reset: NEXT_DAY })
          await spend(30)
          const over = await call('GET', '/v1/pets')
          expect(over.status).toBe(429)
          expect(rate(over)).toEqual({ limit: 1000, remaining: 0, reset: NEXT_DAY })
          expect(Number(over.headers.get('retry-after'))).toBe(
            NEXT_DAY -
              Date.parse((await control('GET', '/__sandbox/clock')).body.now) / 1000,
          )
          await control('POST', '/__sandbox/clock', { now: '2027-03-02T00:00:00Z' })
          expect((await call('GET', '/v1/pets')).status).toBe(200)
        },
        MANY_REQUESTS_MS,
      )

      test('continuing to send after a 429 leads to a temporary ban, which ends', async () => {
        await spend(60)
        let reply = await call('GET', '/v1/pets')
        expect(reply.body.code).toBe('rate_limit_exceeded')
        for (let attempt = 1; attempt < 10; attempt++) {
          reply = await call('GET', '/v1/pets')
          expect(reply.body.code).toBe('rate_limit_exceeded')
        }
        reply = await call('GET', '/v1/pets')
        expect(reply.status).toBe(429)
        expect(reply.body.code).toBe('api_key_temporarily_banned')
        expect(reply.headers.get('retry-after')).toBe('300')
        expect(reply.body.message).toMatch(
          /Wait 300 s \(Retry-After\) and back off exponentially after every 429\. In the sandbox, POST \/__sandbox\/reset lifts the ban at once/,
        )
        await advance(60)
        reply = await call('GET', '/v1/pets')
        expect(reply.body.code).toBe('api_key_temporarily_banned')
        expect(reply.headers.get('retry-after')).toBe('240')
        await advance(240)
        expect((await call('GET', '/v1/pets')).status).toBe(200)
      })

      test(
        'a client that waits as Retry-After says is never banned',
        async () => {
          for (let round = 0; round < 15; round++) {
            await spend(60)
            const over = await call('GET', '/v1/pets')
            expect(over.body.code).toBe('rate_limit_exceeded')
            await advance(Number(over.headers.get('retry-after')))
          }
          expect((await call('GET', '/v1/pets')).status).toBe(200)
        },
        MANY_REQUESTS_MS,
      )
    })

    describe('edge cases a review found', () => {
      test('a clock set past the year 9999 is refused and the API keeps answering', async () => {
        const far = await control('POST', '/__sandbox/clock', { advanceSeconds: 1e15 })
        expect(far.status).toBe(400)
        expect(far.body.message).toContain('outside the years 1970 to 9999')
        expect((await call('GET', '/v1/pets?limit=1')).status).toBe(200)
      })

      test.each([
        '1',
        '12',
        'Friday 2030',
        '2031-02-30T00:00:00Z',
        '2031-01-01T10:00:00',
      ])(
        'a clock "now" of %j, which Date.parse would guess at, is 400 naming the rule',
        async (now) => {
          const before = await control('GET', '/__sandbox/clock')
          const refused = await control('POST', '/__sandbox/clock', { now })
          expect(refused.status).toBe(400)
          expect(refused.body.code).toBe('validation_failed')
          expect(refused.body.message).toContain(
            'now must be an ISO 8601 date such as "2031-01-01T00:00:00Z" (a time needs Z or an offset such as +02:00)',
          )
          expect(refused.body.message).toContain(
            'fields combine, applied in the order reset, freeze, now, advanceSeconds',
          )
          expect((await control('GET', '/__sandbox/clock')).body.now.slice(0, 4)).toBe(
            before.body.now.slice(0, 4),
          )
        },
      )

      test('a scenario switch naming none, or with its field misnamed, says which and how', async () => {
        const misspelt = await control('PUT', '/__sandbox/scenario', {
          name: 'expird-key',
        })
        expect(misspelt.status).toBe(400)
        expect(misspelt.body.code).toBe('unknown_scenario')
        expect(misspelt.body.message).toMatch(
          /^The body's name names no scenario: there is no scenario named "expird-key" \(did you mean "expired-key"\?\)\. Use one of: default, /,
        )
        const misnamed = await control('PUT', '/__sandbox/scenario', {
          scenario: 'default',
        })
        expect(misnamed.status).toBe(400)
        expect(misnamed.body.message).toMatch(
          /^Invalid body: name is required \(the field is name, not scenario\), e\.g\. \{"name":"rate-limited"\}\./,
        )
        const wrongType = await control('PUT', '/__sandbox/scenario', { name: 5 })
        expect(wrongType.body.message).toMatch(
          /^Invalid body: name must be a string, e\.g\./,
        )
      })

      test('a clock change with one refused field changes nothing', async () => {
        const before = await control('GET', '/__sandbox/clock')
        const mixed = await control('POST', '/__sandbox/clock', {
          now: '2031-01-01T00:00:00Z',
          freeze: !before.body.frozen,
          advanceSeconds: 1e15,
        })
        expect(mixed.status).toBe(400)
        expect(mixed.body.message).toContain('outside the years 1970 to 9999')
        const after = await control('GET', '/__sandbox/clock')
        expect(after.body.frozen).toBe(before.body.frozen)
        expect(after.body.now.slice(0, 4)).toBe(before.body.now.slice(0, 4))
        expect(after.body.now).not.toBe('2031-01-01T00:00:00.000Z')
      })

      test('a 429 one request got through a scenario header never leads to a ban of the key', async () => {
        const limited = await call('GET', '/v1/pets', {
          headers: { 'x-sandbox-scenario': 'rate-limited' },
        })
        expect(limited.status).toBe(429)
        for (let index = 0; index < 15; index++) {
          expect((await call('GET', '/v1/pets?limit=1')).status).toBe(200)
        }
      })

      test("an unknown scenario header shows the caller key's own window; an empty one is no header", async () => {
        await spend(5, PRO)
        const unknown = await call('GET', '/v1/pets', {
          key: PRO,
          headers: { 'x-sandbox-scenario': 'nope' },
        })
        expect(unknown.status).toBe(400)
        expect(rate(unknown)).toMatchObject({ limit: 300, remaining: 295 })
        expect(
          (await call('GET', '/v1/pets', { headers: { 'x-sandbox-scenario': '' } }))
            .status,
        ).toBe(200)
      })

      test('after the sunset, getPet is 410 whatever the id', async () => {
        await control('POST', '/__sandbox/clock', { now: '2031-01-01T00:00:00Z' })
        expect((await call('GET', '/v1/pets/abc')).status).toBe(410)
      })
    })

    describe('control endpoints', () => {
      test('GET /__sandbox reports scenario, seed, counts, keys and clock', async () => {
        const state = (await control('GET', '/__sandbox')).body
        expect(state).toMatchObject({
          scenario: { name: 'default' },
          seed: 42,
          counts: { pets: 50 },
          clock: { now: T0, frozen: true },
        })
        expect(
          state.keys.map((key: { key: string; scenario?: string }) =>
            key.scenario ? `${key.key} (${key.scenario})` : key.key,
          ),
        ).toEqual([
          FREE,
          PRO,
          BUSINESS,
          'sandbox-enterprise-key',
          'sandbox-expired-key',
          'sandbox-rate-limited-key (rate-limited)',
          'sandbox-missing-pet-key (missing-pet)',
          'sandbox-empty-store-key (empty-store)',
          'sandbox-slow-network-key (slow-network)',
          'sandbox-flaky-network-key (flaky-network)',
        ])
      })

      test('reset restores data, windows and the scenario', async () => {
        await call('POST', '/v1/pets', { json: { name: 'Rex', categoryId: 1 } })
        await spend(60)
        await control('PUT', '/__sandbox/scenario', { name: 'missing-pet' })
        await control('POST', '/__sandbox/reset')
        const state = (await control('GET', '/__sandbox')).body
        expect(state.counts.pets).toBe(50)
        expect(state.scenario.name).toBe('default')
        expect((await control('GET', '/__sandbox/requests')).body.requests).toEqual([])
        expect((await call('GET', '/v1/pets/1')).status).toBe(200)
      })

      test('the journal lists recent requests, newest first, and is bounded', async () => {
        await call('GET', '/v1/pets?limit=2')
        await call('GET', '/v1/pets/7')
        const { requests } = (await control('GET', '/__sandbox/requests')).body
        expect(requests.slice(0, 2)).toMatchObject([
          {
            method: 'GET',
            path: '/v1/pets/7',
            status: 200,
            key: FREE,
            plan: 'free',
            deprecated: true,
          },
          { method: 'GET', path: '/v1/pets?limit=2', status: 200 },
        ])
        await spend(110, PRO)
        expect((await control('GET', '/__sandbox/requests')).body.requests).toHaveLength(
          100,
        )
        expect(
          (await control('GET', '/__sandbox/requests?limit=3')).body.requests,
        ).toHaveLength(3)
      })

      test('a bad control request is an Error body naming the fix', async () => {
        const unknown = await control('PUT', '/__sandbox/scenario', { name: 'nope' })
        expect(unknown.status).toBe(400)
        expect(unknown.body.code).toBe('unknown_scenario')
        expect(unknown.body.message).toContain('rate-limited')
        // As the header's 400 does: a scenario may also be defined for this session.
        expect(unknown.body.message).toContain('PUT /__sandbox/scenarios/{name}')
        const clock = await control('POST', '/__sandbox/clock', {
          advanceSeconds: 'soon',
        })
        expect(clock.status).toBe(400)
        expect(clock.body.message).toContain('advanceSeconds')
        expect((await control('GET', '/__sandbox/nothing')).status).toBe(404)
      })

      test('a control body that is not application/json is 415 and changes nothing', async () => {
        for (const [method, path, type, body] of [
          [
            'PUT',
            '/__sandbox/scenario',
            'application/merge-patch+json',
            '{"name":"missing-pet"}',
          ],
          ['POST', '/__sandbox/clock', 'text/plain', '{"advanceSeconds":60}'],
          ['POST', '/__sandbox/reset', 'application/x-www-form-urlencoded', 'a=1'],
        ] as const) {
          const before = (await control('GET', '/__sandbox')).body
          const reply = await call(method, path, {
            key: null,
            headers: { 'content-type': type },
            body,
          })
          expect(reply.status, path).toBe(415)
          expect(reply.body.code).toBe('unsupported_media_type')
          expect(reply.body.message).toContain(`got "${type}"`)
          expect((await control('GET', '/__sandbox')).body).toEqual(before)
        }
      })
    })

    describe('scenarios over HTTP', () => {
      test('the X-Sandbox-Scenario header applies to that request only', async () => {
        const missing = await call('GET', '/v1/pets/1', {
          headers: { 'x-sandbox-scenario': 'missing-pet' },
        })
        expect(missing.status).toBe(404)
        expect((await call('GET', '/v1/pets/1')).status).toBe(200)
        const empty = await call('GET', '/v1/pets', {
          headers: { 'x-sandbox-scenario': 'empty-store' },
        })
        expect(empty.body).toEqual([])
        expect((await call('GET', '/v1/pets')).body).toHaveLength(20)
      })

      test('an unknown scenario header is 400 unknown_scenario listing the known ones', async () => {
        const reply = await call('GET', '/v1/pets', {
          headers: { 'x-sandbox-scenario': '../../etc/passwd' },
        })
        expect(reply.status).toBe(400)
        expect(reply.body.code).toBe('unknown_scenario')
        expect(reply.body.message).toContain('missing-pet')
      })

      test('rate-limited: 429 from the first request, Remaining 0, then a ban', async () => {
        await control('PUT', '/__sandbox/scenario', { name: 'rate-limited' })
        const first = await call('GET', '/v1/pets')
        expect(first.status).toBe(429)
        expect(first.body.code).toBe('rate_limit_exceeded')
        expect(rate(first).remaining).toBe(0)
        let reply = first
        for (let attempt = 0; attempt < 10; attempt++)
          reply = await call('GET', '/v1/pets')
        expect(reply.body.code).toBe('api_key_temporarily_banned')
      })

      test('expired-key: every key answers 401 expired_api_key', async () => {
        await control('PUT', '/__sandbox/scenario', { name: 'expired-key' })
        for (const key of [FREE, PRO]) {
          const reply = await call('GET', '/v1/pets', { key })
          expect(reply.status).toBe(401)
          expect(reply.body.code).toBe('expired_api_key')
        }
      })

      test('missing-pet: getPet is 404 for every id, listing still works', async () => {
        await control('PUT', '/__sandbox/scenario', { name: 'missing-pet' })
        expect((await call('GET', '/v1/pets/1')).body.code).toBe('not_found')
        expect((await call('GET', '/v1/pets')).status).toBe(200)
      })

      test('rate-limit-countdown: 5 a minute, then 429, then recovery', async () => {
        await control('PUT', '/__sandbox/scenario', { name: 'rate-limit-countdown' })
        const remaining = []
        for (let index = 0; index < 5; index++)
          remaining.push(rate(await call('GET', '/v1/pets')).remaining)
        expect(remaining).toEqual([4, 3, 2, 1, 0])
        expect((await call('GET', '/v1/pets')).status).toBe(429)
        await advance(30)
        expect((await call('GET', '/v1/pets')).status).toBe(200)
      })

      test('empty-store: its own world, creates stay in it', async () => {
        await control('PUT', '/__sandbox/scenario', { name: 'empty-store' })
        expect((await call('GET', '/v1/pets')).body).toEqual([])
        const created = await call('POST', '/v1/pets', {
          json: { name: 'First', categoryId: 1 },
        })
        expect(created.body.id).toBe(1)
        expect((await call('GET', '/v1/pets')).body).toEqual([created.body])
        await control('PUT', '/__sandbox/scenario', { name: 'default' })
        expect((await call('GET', '/v1/pets?limit=100')).body).toHaveLength(50)
      })
    })
  })
}
