import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { validateHar } from '../har-schema/validate-har.js'
import { openApiProblems } from './openapi.js'
import { endRequestsWithEachTest, send, testSignal } from './send.js'
import type { ContractTarget } from './suite.js'

const T0 = '2029-03-01T10:00:00.000Z'
/** A scenario alice defines at run time. */
const DOWN = {
  description: 'listPets is down',
  errors: { listPets: { status: 503, code: 'service_unavailable' } },
}

interface Answer {
  status: number
  body: any
  requestId: string | null
}

/**
 * Carrying a session (issue 23 §3, CONTRACT "Carrying a session") over HTTP, in every
 * runtime: `GET /__sandbox/export`, `POST /__sandbox/sessions {"id", "from"}` and
 * `GET /__sandbox/requests.har`. Every answer is also held to the OpenAPI document.
 */
export function defineCarrySuite(
  runtime: string,
  start: () => Promise<ContractTarget>,
  /** Whether the sandbox sees the suite's origin (not a relay's, as in the browser runtime). */
  sameOrigin = true,
) {
  describe(`carrying a session (${runtime})`, () => {
    let target: ContractTarget
    endRequestsWithEachTest(() => target?.idle?.())
    /** The X-Sandbox-Request-Id of alice's 404. */
    let missingId: string | null = null

    async function call(
      method: string,
      path: string,
      options: { session?: string; json?: unknown; key?: string } = {},
    ): Promise<Answer> {
      const { response, text } = await send(target.origin, method, path, options)
      const parsed = text === '' ? undefined : JSON.parse(text)
      const url = new URL(path, target.origin)
      expect(
        openApiProblems(method, url.pathname, response.status, response.headers, parsed),
        `${method} ${path}`,
      ).toEqual([])
      return {
        status: response.status,
        body: parsed,
        requestId: response.headers.get('x-sandbox-request-id'),
      }
    }

    beforeAll(async () => {
      target = await start()
      // Alice's afternoon: a pet, a scenario, a clock moved, an error.
      await call('POST', '/__sandbox/clock', {
        session: 'alice',
        json: { now: T0, freeze: true },
      })
      expect(
        (
          await call('POST', '/v1/pets', {
            session: 'alice',
            json: { name: 'Rex', categoryId: 2, status: 'pending' },
          })
        ).status,
      ).toBe(201)
      await call('PUT', '/__sandbox/scenario', {
        session: 'alice',
        json: { name: 'missing-pet' },
      })
      const defined = await call('PUT', '/__sandbox/scenarios/alice-down', {
        session: 'alice',
        json: DOWN,
      })
      expect(defined.status).toBe(201)
      await call('POST', '/__sandbox/clock', {
        session: 'alice',
        json: { advanceSeconds: 3600 },
      })
      const missing = await call('GET', '/v1/pets/1', { session: 'alice' })
      expect(missing.status).toBe(404)
      missingId = missing.requestId
    })
    afterAll(() => target.close())

    test('GET /__sandbox/export gives the session the request names', async () => {
      const { status, body } = await call('GET', '/__sandbox/export', {
        session: 'alice',
      })
      expect(status).toBe(200)
      expect(body).toMatchObject({
        format: 'petstore-sandbox/session@1',
        session: 'alice',
        scenario: 'missing-pet',
        scenarios: [{ name: 'alice-down', ...DOWN }],
        clock: { now: '2029-03-01T11:00:00.000Z', frozen: true },
        journalComplete: true,
      })
      expect(body.pets.at(-1)).toMatchObject({
        name: 'Rex',
        categoryId: 2,
        status: 'pending',
      })
      expect(
        body.journal.map((entry: any) => [entry.method, entry.path, entry.status]),
      ).toEqual([
        ['POST', '/v1/pets', 201],
        ['GET', '/v1/pets/1', 404],
      ])
    })

    test('POST /__sandbox/sessions with from makes a session from it: same pets, scenario, clock', async () => {
      const { body: data } = await call('GET', '/__sandbox/export', { session: 'alice' })
      const made = await call('POST', '/__sandbox/sessions', {
        json: { id: 'alice-bug', from: data },
      })
      expect(made.status).toBe(201)
      expect(made.body).toEqual({
        id: 'alice-bug',
        keys: expect.objectContaining({ free: 'sandbox-free-key.alice-bug' }),
      })
      const key = 'sandbox-free-key.alice-bug'
      const pets = await call('GET', '/v1/pets?limit=100', { key })
      expect(pets.body).toEqual(data.pets)
      expect((await call('GET', '/v1/pets/1', { key })).status).toBe(404) // missing-pet
      const state = await call('GET', '/__sandbox', { key })
      expect(state.body.clock).toEqual(data.clock)
      // Her scenario defined at run time came along.
      const down = await fetch(`${target.origin}/v1/pets`, {
        signal: testSignal(),
        headers: { authorization: `Bearer ${key}`, 'x-sandbox-scenario': 'alice-down' },
      })
      expect(down.status).toBe(503)
      // A fresh journal: what the new session did, not what alice did.
      const journal = await call('GET', '/__sandbox/requests', { key })
      expect(journal.body.requests.map((entry: any) => entry.path)).toEqual([
        '/v1/pets',
        '/v1/pets/1',
        '/v1/pets?limit=100',
      ])

      const again = await call('POST', '/__sandbox/sessions', {
        json: { id: 'alice-bug', from: data },
      })
      expect(again.status).toBe(409)
      expect(again.body.code).toBe('session_exists')
      expect(again.body.message).toContain('DELETE /__sandbox/sessions/alice-bug')
    })

    test('a bad export is 400 validation_failed naming from.<field>', async () => {
      const { body: data } = await call('GET', '/__sandbox/export', { session: 'alice' })
      const cases: Array<[unknown, string]> = [
        [
          { ...data, format: 'petstore-sandbox/session@9' },
          'from.format is "petstore-sandbox/session@9"; it must be "petstore-sandbox/session@1"',
        ],
        [
          { ...data, pets: [{ ...data.pets[0], name: '' }] },
          'from.pets[0].name must not be empty',
        ],
        [
          { ...data, clock: { now: 'soon', frozen: true } },
          'from.clock.now must be an ISO 8601 date',
        ],
        [
          { ...data, scenario: 'not-here' },
          'from.scenario "not-here" is not loaded in this sandbox',
        ],
        [
          { ...data, scenarios: [{ ...DOWN, name: 'rate-limited' }] },
          'from.scenarios[0].name "rate-limited" is a scenario loaded in this sandbox',
        ],
        [
          { ...data, scenarios: [{ ...DOWN, name: 'x', keys: { k: 'free' } }] },
          'from.scenarios[0].keys must be left out',
        ],
        ['an export', 'from must be an object'],
      ]
      for (const [from, message] of cases) {
        const refused = await call('POST', '/__sandbox/sessions', {
          json: { id: 'bad', from },
        })
        expect(refused.status, message).toBe(400)
        expect(refused.body.code).toBe('validation_failed')
        expect(refused.body.message).toContain(message)
      }
      const both = await call('POST', '/__sandbox/sessions', {
        json: { id: 'bad', from: data, scenario: 'default' },
      })
      expect(both.status).toBe(400)
      expect(both.body.message).toContain('scenario and from were both sent')
      const sessions = await call('GET', '/__sandbox/sessions')
      expect(sessions.body.sessions.map((session: any) => session.id)).not.toContain(
        'bad',
      )
    })

    test("GET /__sandbox/requests.har is the session's journal as valid HAR 1.2 on the request's origin", async () => {
      const { status, body } = await call('GET', '/__sandbox/requests.har', {
        session: 'alice',
      })
      expect(status).toBe(200)
      expect(validateHar(body)).toEqual([])
      const urls = body.log.entries.map((entry: any) => new URL(entry.request.url))
      expect(urls.map((url: URL) => url.pathname)).toEqual(['/v1/pets', '/v1/pets/1'])
      if (sameOrigin) {
        expect(urls.map((url: URL) => url.origin)).toEqual(
          Array(2).fill(new URL(target.origin).origin),
        )
      }
      expect(body.log.entries[0].request.postData).toEqual({
        mimeType: 'application/json',
        text: '{"name":"Rex","categoryId":2,"status":"pending"}',
      })
      expect(missingId).toMatch(/^\d+$/)
      expect(body.log.entries[1].response.headers).toContainEqual({
        name: 'x-sandbox-request-id',
        value: missingId,
      })
      expect(JSON.parse(body.log.entries[1].response.content.text)).toMatchObject({
        code: 'not_found',
        status: 404,
      })
    })
  })
}
