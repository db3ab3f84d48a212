import { afterAll, beforeAll, beforeEach, describe, expect, test } from 'vitest'
import { endRequestsWithEachTest, send, type SendOptions, testSignal } from './send.js'
import type { ContractTarget } from './suite.js'

const FREE = 'sandbox-free-key'
const T0 = '2027-03-01T10:00:30.000Z'

interface Answer {
  status: number
  headers: Headers
  body: any
}

/**
 * Sessions (issue 15, CONTRACT "Sessions"), in every runtime: isolated worlds chosen by
 * `X-Sandbox-Session` or a session key, the sessions endpoints, scenario keys, and the
 * bounds. Each "why" of the issue is a case: parallel test workers, a shared host,
 * clients that can only choose their key.
 */
export function defineSessionsSuite(
  runtime: string,
  start: (options: {
    maxSessions: number
    clock: { now: string; frozen: boolean }
    idleNow: () => number
  }) => Promise<ContractTarget>,
) {
  describe(`sessions (${runtime})`, () => {
    let target: ContractTarget
    endRequestsWithEachTest(() => target?.idle?.())

    async function call(
      method: string,
      path: string,
      options: Pick<SendOptions, 'key' | 'session' | 'json'> = {},
    ): Promise<Answer> {
      const { response, text } = await send(target.origin, method, path, options)
      return {
        status: response.status,
        headers: response.headers,
        body: text === '' ? undefined : JSON.parse(text),
      }
    }
    const create = (name: string, options: { key?: string; session?: string } = {}) =>
      call('POST', '/v1/pets', { ...options, json: { name, categoryId: 1 } })
    const names = async (options: { key?: string; session?: string } = {}) =>
      ((await call('GET', '/v1/pets?limit=100', options)).body as Array<{ name: string }>)
        .map((pet) => pet.name)
        .filter((name) => ['Rex', 'Ada', 'Bo'].includes(name))

    /** The time sessions idle by (the idleNow option): moved to expire them. */
    let idle = Date.parse(T0)

    beforeAll(async () => {
      // Every session's clock starts frozen at T0, as the default one does.
      target = await start({
        maxSessions: 3,
        clock: { now: T0, frozen: true },
        idleNow: () => idle,
      })
    })
    afterAll(() => target.close())
    beforeEach(async () => {
      for (const { id } of (await call('GET', '/__sandbox/sessions')).body.sessions)
        await call('DELETE', `/__sandbox/sessions/${id}`)
      await call('POST', '/__sandbox/reset')
      await call('POST', '/__sandbox/clock', { json: { now: T0, freeze: true } })
      idle = Date.parse(T0)
    })

    test("parallel workers: one worker's reset and creates never reach another's pets", async () => {
      expect((await create('Rex', { session: 'worker-a' })).status).toBe(201)
      expect((await create('Ada', { session: 'worker-b' })).status).toBe(201)
      expect(await names({ session: 'worker-a' })).toEqual(['Rex'])
      expect(await names({ session: 'worker-b' })).toEqual(['Ada'])
      expect(await names()).toEqual([])
      await call('POST', '/__sandbox/reset', { session: 'worker-a' })
      expect(await names({ session: 'worker-a' })).toEqual([])
      expect(await names({ session: 'worker-b' })).toEqual(['Ada'])
    })

    test('reading the control API makes no session: a page any site can open must not fill the registry', async () => {
      const listed = async () =>
        (await call('GET', '/__sandbox/sessions')).body.sessions.map(
          (session: { id: string }) => session.id,
        )
      // It is read as it would start: the seeded data, an empty journal and report.
      const state = await call('GET', '/__sandbox', { session: 'only-read' })
      expect(state.status).toBe(200)
      expect(state.body.session).toBe('only-read')
      expect(state.body.counts.pets).toBe(50)
      const journal = await call('GET', '/__sandbox/requests', { session: 'only-read' })
      expect(journal.body.requests).toEqual([])
      const report = await call('GET', '/__sandbox/report', { session: 'only-read' })
      expect(report.body.requests).toBe(0)
      // Carried out as it would start too, not refused as if the header were a mistake.
      const exported = await call('GET', '/__sandbox/export', { session: 'only-read' })
      expect(exported.status).toBe(200)
      expect(exported.body).toMatchObject({
        format: 'petstore-sandbox/session@1',
        session: 'only-read',
        journal: [],
      })
      expect(exported.body.pets).toHaveLength(50)
      const har = await call('GET', '/__sandbox/requests.har', { session: 'only-read' })
      expect(har.status).toBe(200)
      expect(har.body.log.entries).toEqual([])
      for (const read of [state, journal, report, exported, har])
        expect(read.headers.get('x-sandbox-session-created')).toBeNull()
      expect(await listed()).not.toContain('only-read')
      // Its first /v1 request makes it; then it is read as any other.
      await call('GET', '/v1/pets?limit=1', { session: 'only-read' })
      expect(await listed()).toContain('only-read')
      const after = await call('GET', '/__sandbox/requests', { session: 'only-read' })
      expect(after.body.requests).toHaveLength(1)
    })

    test('a new session starts as the seeded data, not as the default world now is', async () => {
      await create('Bo')
      const seeded = await call('GET', '/v1/pets?limit=100', { session: 'fresh' })
      expect(seeded.headers.get('x-sandbox-session-created')).toBe('true')
      const plain = await call('GET', '/v1/pets?limit=100', { key: FREE })
      expect(seeded.body).toEqual(
        plain.body.filter((pet: { name: string }) => pet.name !== 'Bo'),
      )
      expect(seeded.body).toHaveLength(50)
      // Ids continue after the seed in each world on its own.
      expect((await create('Rex', { session: 'fresh' })).body.id).toBe(51)
      const again = await call('GET', '/v1/pets/51', { session: 'fresh' })
      expect(again.body.name).toBe('Rex')
      expect(again.headers.get('x-sandbox-session-created')).toBeNull()
    })

    test('a shared host: the first to exhaust the Free limit and get banned bans nobody else', async () => {
      let last: Answer | undefined
      for (let index = 0; index < 75; index++)
        last = await call('GET', '/v1/pets?limit=1', { session: 'alice' })
      expect(last?.status).toBe(429)
      expect(last?.body.code).toBe('api_key_temporarily_banned')
      const bob = await call('GET', '/v1/pets?limit=1', { session: 'bob' })
      expect(bob.status).toBe(200)
      expect(bob.headers.get('x-ratelimit-remaining')).toBe('59')
      expect((await call('GET', '/v1/pets?limit=1')).status).toBe(200)
    })

    test('a session has its own clock and scenario switch', async () => {
      await call('POST', '/__sandbox/clock', {
        session: 'later',
        json: { now: '2031-01-01T00:00:00Z', freeze: true },
      })
      expect((await call('GET', '/v1/pets/1', { session: 'later' })).status).toBe(410)
      expect((await call('GET', '/v1/pets/1')).status).toBe(200)
      await call('PUT', '/__sandbox/scenario', {
        session: 'broken',
        json: { name: 'missing-pet' },
      })
      expect((await call('GET', '/v1/pets/1', { session: 'broken' })).status).toBe(404)
      expect((await call('GET', '/__sandbox', { session: 'broken' })).body).toMatchObject(
        {
          session: 'broken',
          scenario: { name: 'missing-pet' },
        },
      )
      expect((await call('GET', '/__sandbox')).body.scenario.name).toBe('default')
      const journal = (await call('GET', '/__sandbox/requests', { session: 'broken' }))
        .body
      expect(journal.requests.map((entry: { status: number }) => entry.status)).toEqual([
        404,
      ])
      expect(journal.requests[0].session).toBe('broken')
    })

    test('a client that can only choose its key: a session key, and a scenario key', async () => {
      expect((await create('Rex', { key: `${FREE}.carol` })).status).toBe(201)
      expect(await names({ session: 'carol' })).toEqual(['Rex'])
      expect(await names({ key: 'sandbox-pro-key.carol' })).toEqual(['Rex'])
      const limited = await call('GET', '/v1/pets', { key: 'sandbox-rate-limited-key' })
      expect(limited.status).toBe(429)
      expect(limited.headers.get('retry-after')).toMatch(/^\d+$/)
      // The message says where the scenario came from and how to leave it.
      expect(limited.body.message).toMatch(
        /scenario "rate-limited" starts every minute window used up \(the key sandbox-rate-limited-key selects it/,
      )
      const missing = await call('GET', '/v1/pets/1', {
        key: 'sandbox-missing-pet-key.dan',
      })
      expect(missing.status).toBe(404)
      // The key outranks the session's switch: the way out it names is another key, in
      // the same session.
      expect(missing.body.message).toMatch(
        /the key sandbox-missing-pet-key selects it: to leave it, send a key without a scenario, such as sandbox-free-key\.dan/,
      )
      expect((await call('GET', '/v1/pets/1', { key: `${FREE}.dan` })).status).toBe(200)
      // The X-Sandbox-Scenario header is stronger than the key's scenario.
      const header = await fetch(`${target.origin}/v1/pets/1`, {
        signal: testSignal(),
        headers: {
          authorization: 'Bearer sandbox-missing-pet-key',
          'x-sandbox-scenario': 'default',
        },
      })
      expect(header.status).toBe(200)
    })

    test('a bad session id, or a header and a key naming two sessions, is a 400 saying which', async () => {
      const bad = await call('GET', '/v1/pets', { session: 'no spaces!' })
      expect(bad.status).toBe(400)
      expect(bad.body.code).toBe('invalid_session')
      const badKey = await call('GET', '/v1/pets', { key: `${FREE}.a.b` })
      expect(badKey.body.code).toBe('invalid_session')
      const conflict = await call('GET', '/v1/pets', { key: `${FREE}.x`, session: 'y' })
      expect(conflict.status).toBe(400)
      expect(conflict.body.code).toBe('session_conflict')
      expect(conflict.body.message).toMatch(/"y".*"x"/)
      expect(
        (await call('GET', '/v1/pets', { key: `${FREE}.x`, session: 'x' })).status,
      ).toBe(200)
    })

    test('POST, GET and DELETE /__sandbox/sessions', async () => {
      const made = await call('POST', '/__sandbox/sessions', { json: { id: 'worker-1' } })
      expect(made.status).toBe(201)
      expect(made.body).toEqual({
        id: 'worker-1',
        keys: {
          free: 'sandbox-free-key.worker-1',
          pro: 'sandbox-pro-key.worker-1',
          business: 'sandbox-business-key.worker-1',
          enterprise: 'sandbox-enterprise-key.worker-1',
        },
      })
      const again = await call('POST', '/__sandbox/sessions', {
        json: { id: 'worker-1' },
      })
      expect(again.status).toBe(200)
      expect(again.body).toEqual(made.body)
      const generated = await call('POST', '/__sandbox/sessions')
      expect(generated.status).toBe(201)
      expect(generated.body.id).toMatch(/^[A-Za-z0-9_-]{1,64}$/)
      const scenario = await call('POST', '/__sandbox/sessions', {
        json: { id: 'empty', scenario: 'empty-store' },
      })
      expect(scenario.status).toBe(201)
      expect((await call('GET', '/v1/pets', { session: 'empty' })).body).toEqual([])

      const listed = (await call('GET', '/__sandbox/sessions')).body.sessions
      expect(listed.map((session: { id: string }) => session.id).sort()).toEqual(
        ['empty', generated.body.id, 'worker-1'].sort(),
      )
      // Dated by the time sessions idle by (here the suite's idleNow, at T0).
      expect(listed[0]).toEqual({
        id: expect.any(String),
        createdAt: T0,
        lastUsedAt: T0,
        pets: expect.any(Number),
      })

      expect((await call('DELETE', '/__sandbox/sessions/worker-1')).status).toBe(204)
      const gone = await call('DELETE', '/__sandbox/sessions/worker-1')
      expect(gone.status).toBe(404)
      expect(gone.body.code).toBe('not_found')
      const main = await call('DELETE', '/__sandbox/sessions/default')
      expect(main.status).toBe(400)
      expect(main.body.code).toBe('invalid_session')
      expect(main.body.message).toMatch(/POST \/__sandbox\/reset/)
    })

    test('bounded: idle sessions expire, and the least recently used goes first', async () => {
      await create('Rex', { session: 's1' })
      await create('Ada', { session: 's2' })
      await create('Bo', { session: 's3' })
      await call('GET', '/v1/pets?limit=1', { session: 's1' })
      // A fourth session (the limit is 3 here) evicts s2, the least recently used.
      await call('GET', '/v1/pets?limit=1', { session: 's4' })
      const ids = (await call('GET', '/__sandbox/sessions')).body.sessions.map(
        (session: { id: string }) => session.id,
      )
      expect(ids.sort()).toEqual(['s1', 's3', 's4'])
      const back = await call('GET', '/v1/pets?limit=100', { session: 's2' })
      expect(back.headers.get('x-sandbox-session-created')).toBe('true')
      expect(back.body.map((pet: { name: string }) => pet.name)).not.toContain('Ada')

      // An hour and a second idle (the default TTL), s1 has expired.
      idle += 3_601_000
      const expired = await call('GET', '/v1/pets?limit=100', { session: 's1' })
      expect(expired.headers.get('x-sandbox-session-created')).toBe('true')
      expect(await names({ session: 's1' })).toEqual([])
    })

    test("moving the default session's clock, or a session's own, ends no session (issue 36)", async () => {
      await create('Rex', { session: 'kept' })
      await call('GET', '/v1/pets/1', { session: 'kept' })
      await call('GET', '/v1/pets?limit=1', { session: 'other' })
      const journalOf = async (session: string) =>
        (await call('GET', '/__sandbox/requests', { session })).body.requests.map(
          (entry: { method: string; path: string }) => `${entry.method} ${entry.path}`,
        )
      const before = await journalOf('kept')
      // Newest first.
      expect(before).toEqual(['GET /v1/pets/1', 'POST /v1/pets'])
      for (const json of [
        { advanceSeconds: 3601 },
        { now: '9999-12-31T23:59:59.999Z' },
        { advanceSeconds: -999_999_999 },
      ]) {
        // Without a session: the default one's clock, which every session once expired by.
        expect((await call('POST', '/__sandbox/clock', { json })).status).toBe(200)
        expect(
          (await call('POST', '/__sandbox/clock', { session: 'other', json })).status,
        ).toBe(200)
        const used = await call('GET', '/v1/pets?limit=100', { session: 'kept' })
        expect(used.status).toBe(200)
        expect(used.headers.get('x-sandbox-session-created')).toBeNull()
        expect(await names({ session: 'kept' })).toEqual(['Rex'])
      }
      expect((await journalOf('kept')).slice(-2)).toEqual(before)
      const ids = (await call('GET', '/__sandbox/sessions')).body.sessions.map(
        (session: { id: string }) => session.id,
      )
      expect(ids.sort()).toEqual(['kept', 'other'])
    })
  })
}
