import { afterAll, beforeAll, beforeEach, describe, expect, test } from 'vitest'
import { endRequestsWithEachTest, testSignal } from './send.js'
import { openApiProblems } from './openapi.js'
import type { ContractTarget } from './suite.js'

const FREE = 'sandbox-free-key'
const T0 = '2027-03-01T10:00:30.000Z'

interface Answer {
  status: number
  headers: Headers
  text: string
}

/** Headers that differ between two answers to the same request by design. */
const VARYING = new Set([
  'date',
  'x-ratelimit-remaining',
  'connection',
  'keep-alive',
  'x-sandbox-request-id',
])

/**
 * CONTRACT "Odd requests", the part every runtime holds: HEAD is GET without a body,
 * `Allow` lists HEAD, and a malformed percent-escape anywhere in the path or the query
 * is 400 invalid_path before routing (with getPet's deprecation headers when the path
 * is getPet's). The transport cases (TRACE, `*`, the absolute form, POST /) are in
 * test/express/request-target.test.ts.
 */
export function defineOddRequestsSuite(
  runtime: string,
  start: () => Promise<ContractTarget>,
) {
  describe(`odd requests (${runtime})`, () => {
    let target: ContractTarget
    endRequestsWithEachTest(() => target?.idle?.())

    async function send(
      method: string,
      path: string,
      key: string | null = FREE,
    ): Promise<Answer> {
      const headers: Record<string, string> = key
        ? { authorization: `Bearer ${key}` }
        : {}
      const response = await fetch(`${target.origin}${path}`, {
        method,
        headers,
        signal: testSignal(),
      })
      return {
        status: response.status,
        headers: response.headers,
        text: await response.text(),
      }
    }
    const json = (answer: Answer) => JSON.parse(answer.text)
    const journal = async () =>
      json(await send('GET', '/__sandbox/requests', null)).requests as Array<{
        method: string
        path: string
        status: number
        operation?: string
      }>
    const state = async () => {
      const { counts, scenario, clock } = json(await send('GET', '/__sandbox', null))
      const sessions = json(await send('GET', '/__sandbox/sessions', null)).sessions
      return { counts, scenario, clock, sessions }
    }

    beforeAll(async () => {
      target = await start()
    })
    afterAll(async () => {
      await target?.close()
    })
    beforeEach(async () => {
      expect((await send('POST', '/__sandbox/reset', null)).status).toBe(200)
      const clock = await fetch(`${target.origin}/__sandbox/clock`, {
        signal: testSignal(),
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ freeze: true, now: T0 }),
      })
      expect(clock.status).toBe(200)
    })

    describe('HEAD is answered as GET, without a body', () => {
      test.each([
        ['/v1/pets?limit=2', FREE],
        ['/v1/pets/1', FREE],
        ['/v1/pets/9999', FREE],
        ['/v1/pets/abc', FREE],
        ['/v1/pets', null],
        ['/v1/store/orders', FREE],
        ['/v1/animals', FREE],
        ['/__sandbox', null],
        ['/__sandbox/scenario', null],
        ['/__sandbox/clock', null],
        ['/__sandbox/sessions', null],
        ['/__sandbox/nothing', null],
      ] as const)('%s (key %s)', async (path, key) => {
        const get = await send('GET', path, key)
        const head = await send('HEAD', path, key)
        expect(head.status).toBe(get.status)
        expect(head.text).toBe('')
        const names = (answer: Answer) =>
          [...answer.headers.keys()].filter((name) => !VARYING.has(name))
        expect(names(head)).toEqual(names(get))
        // Content-Length too, but an error message names the method it was sent with
        // ("No endpoint at HEAD /v1/animals"), one byte longer than the GET's.
        for (const name of names(get).filter((name) => name !== 'content-length'))
          expect(head.headers.get(name), name).toBe(get.headers.get(name))
        // It counts against the limit like the GET it mirrors (when the GET counts).
        const remaining = (answer: Answer) =>
          Number(answer.headers.get('x-ratelimit-remaining'))
        if (path.startsWith('/v1') && key !== null)
          expect(remaining(head)).toBe(remaining(get) - 1)
        const { pathname } = new URL(path, 'http://x')
        expect(
          openApiProblems('GET', pathname, head.status, head.headers, json(get)),
        ).toEqual([])
      })

      test('it is journalled as HEAD, with the operation it mirrors', async () => {
        await send('HEAD', '/v1/pets?limit=1')
        await send('HEAD', '/v1/pets/2')
        expect((await journal()).slice(0, 2)).toMatchObject([
          { method: 'HEAD', path: '/v1/pets/2', status: 200, operation: 'getPet' },
          {
            method: 'HEAD',
            path: '/v1/pets?limit=1',
            status: 200,
            operation: 'listPets',
          },
        ])
      })

      test('Allow lists HEAD wherever GET is allowed', async () => {
        for (const [method, path, allow] of [
          ['PUT', '/v1/pets', 'GET, HEAD, POST'],
          ['DELETE', '/v1/pets/1', 'GET, HEAD'],
          ['POST', '/v1/store/orders', 'GET, HEAD'],
          ['DELETE', '/__sandbox', 'GET, HEAD'],
          ['PATCH', '/__sandbox/scenario', 'GET, HEAD, PUT'],
          ['PUT', '/__sandbox/sessions', 'GET, HEAD, POST'],
          ['HEAD', '/__sandbox/reset', 'POST'],
          ['HEAD', '/__sandbox/sessions/abc', 'DELETE'],
        ]) {
          const reply = await send(method as string, path as string)
          expect(reply.status, `${method} ${path}`).toBe(405)
          expect(reply.headers.get('allow'), `${method} ${path}`).toBe(allow)
        }
      })
    })

    describe('a malformed percent-escape is 400 invalid_path, before routing', () => {
      test.each([
        ['GET', '/v1/%ZZ'],
        ['GET', '/v1/pets%'],
        ['POST', '/v1/pets/%A'],
        ['GET', '/v1/pets?limit=%ZZ'],
        ['GET', '/v1/pets?status=%E0%A4%A'],
        ['GET', '/v1/pets?%G1=1'],
        ['GET', '/v1/store/orders?x=%'],
        ['DELETE', '/__sandbox/sessions/%ZZ'],
        ['DELETE', '/__sandbox/sessions/%E0%A4%A'],
        ['DELETE', '/__sandbox/sessions/%E0%A4'],
        ['GET', '/__sandbox/requests?limit=%ZZ'],
        ['POST', '/__sandbox/%ZZ/reset'],
        ['PUT', '/__sandbox/scenario?name=%C3'],
      ])('%s %s', async (method, path) => {
        await send('DELETE', '/__sandbox/sessions/kept')
        await send('GET', '/v1/pets?limit=1', `${FREE}.kept`)
        const before = await state()
        const reply = await send(method, path)
        expect(reply.status).toBe(400)
        expect(json(reply)).toMatchObject({ code: 'invalid_path', status: 400 })
        expect(json(reply).message).toMatch(/malformed percent-escape/)
        expect(reply.headers.get('content-type')).toBe('application/json')
        expect(await state()).toEqual(before)
      })

      test.each([
        ['limit=0x10', 'limit', '"0x10"'],
        ['limit=1e3', 'limit', '"1e3"'],
        ['limit=%205', 'limit', '" 5"'],
        ['limit=2&limit=3', 'limit', '2 values'],
        ['after=-1', 'after', '"-1"'],
        ['after=1.5', 'after', '"1.5"'],
      ])(
        'GET /__sandbox/requests?%s is 400 naming %s, read as /v1 reads limit',
        async (query, name, given) => {
          const reply = await send('GET', `/__sandbox/requests?${query}`)
          expect(reply.status).toBe(400)
          expect(json(reply).code).toBe('validation_failed')
          expect(json(reply).message).toMatch(
            new RegExp(
              `^Invalid query: ${name} must be .*, given once, got ${given.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\\.$`,
            ),
          )
        },
      )

      test('a well-formed escape in a session id is decoded', async () => {
        await send('GET', '/v1/pets?limit=1', `${FREE}.A-1`)
        expect((await send('DELETE', '/__sandbox/sessions/%41-1', null)).status).toBe(204)
      })
    })

    describe('a refused path counts as any other 400 of its key, in its session', () => {
      const remaining = (answer: Answer) =>
        Number(answer.headers.get('x-ratelimit-remaining'))
      const journalOf = async (session: string) => {
        const response = await fetch(`${target.origin}/__sandbox/requests`, {
          signal: testSignal(),
          headers: { 'x-sandbox-session': session },
        })
        return (await response.json()).requests as Array<{
          path: string
          status: number
          code?: string
          key?: string
        }>
      }

      test('in the window and journal of the session its key names', async () => {
        const first = await send('GET', '/v1/pets?limit=1', `${FREE}.odd`)
        expect(first.status).toBe(200)
        const refused = await send('GET', '/v1/%ZZ', `${FREE}.odd`)
        expect(refused.status).toBe(400)
        expect(json(refused).code).toBe('invalid_path')
        expect(refused.headers.get('x-ratelimit-limit')).toBe(
          first.headers.get('x-ratelimit-limit'),
        )
        expect(remaining(refused)).toBe(remaining(first) - 1)
        const next = await send('GET', '/v1/pets?limit=1', `${FREE}.odd`)
        expect(remaining(next)).toBe(remaining(first) - 2)
        expect(await journalOf('odd')).toContainEqual(
          expect.objectContaining({
            path: '/v1/%ZZ',
            status: 400,
            code: 'invalid_path',
            key: FREE,
          }),
        )
        expect(
          (await journalOf('default')).some((entry) => entry.path === '/v1/%ZZ'),
        ).toBe(false)
      })

      test('it makes no session: a refusal leaves the sandbox as it was', async () => {
        await send('DELETE', '/__sandbox/sessions/fresh')
        const refused = await send('GET', '/v1/%ZZ', `${FREE}.fresh`)
        expect(refused.status).toBe(400)
        expect(refused.headers.get('x-sandbox-session-created')).toBeNull()
        const ids = async () =>
          json(await send('GET', '/__sandbox/sessions', null)).sessions.map(
            (session: { id: string }) => session.id,
          )
        expect(await ids()).not.toContain('fresh')
        // The first request the API answers makes it.
        await send('GET', '/v1/pets?limit=1', `${FREE}.fresh`)
        expect(await ids()).toContain('fresh')
      })

      test('without a valid key it is not counted; over the limit it is still the 400', async () => {
        const first = await send('GET', '/v1/pets?limit=1', null)
        const refused = await send('GET', '/v1/%ZZ', null)
        expect(json(refused).code).toBe('invalid_path')
        expect(remaining(refused)).toBe(remaining(first))
        // No check reads a path that is not one: never a 429, nor a step towards a ban.
        for (let attempt = 0; attempt < 12; attempt++) {
          const limited = await send('GET', '/v1/%ZZ', 'sandbox-rate-limited-key')
          expect(limited.status).toBe(400)
          expect(json(limited).code).toBe('invalid_path')
          expect(remaining(limited)).toBe(0)
        }
        const next = await send('GET', '/v1/pets', 'sandbox-rate-limited-key')
        expect(json(next).code).toBe('rate_limit_exceeded')
      })
    })

    describe("getPet's refused paths carry its deprecation headers, as the document says", () => {
      test.each(['/v1/pets/%5C', '/v1/pets/%2F', '/v1/pets/%ZZ', '/v1/pets/%E0%A4'])(
        'GET %s',
        async (path) => {
          for (const method of ['GET', 'HEAD']) {
            const reply = await send(method, path)
            expect(reply.status).toBe(400)
            expect(reply.headers.get('deprecation')).toMatch(/^@\d+$/)
            expect(reply.headers.get('sunset')).toBe('Thu, 05 Dec 2030 00:00:00 GMT')
            expect(reply.headers.get('link')).toBe('</v1/pets>; rel="successor-version"')
          }
          const reply = await send('GET', path)
          expect(json(reply).code).toBe('invalid_path')
          const { pathname } = new URL(path, 'http://x')
          expect(
            openApiProblems('GET', pathname, 400, reply.headers, json(reply)),
          ).toEqual([])
          // Other paths are not getPet's: no deprecation headers.
          const other = await send('GET', '/v1/pets?limit=%ZZ')
          expect(other.headers.get('deprecation')).toBeNull()
        },
      )
    })
  })
}
