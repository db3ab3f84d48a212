import { afterAll, beforeAll, beforeEach, describe, expect, test } from 'vitest'
import { endRequestsWithEachTest, testSignal } from './send.js'
import { openApiProblems } from './openapi.js'
import type { ContractTarget } from './suite.js'

const FREE = 'sandbox-free-key'
const T0 = '2027-03-01T10:00:30.000Z'

interface Finding {
  code: string
  severity: string
  count: number
  message: string
  fix: string
  requestIds: number[]
}

/**
 * CONTRACT "The report card", in every runtime: GET /__sandbox/report grades the client
 * of the session the request names, from every /v1 request since its start or reset.
 * The naive client and the fixed one are the example of docs/report-card.md (examples/vitest).
 */
export function defineReportSuite(runtime: string, start: () => Promise<ContractTarget>) {
  describe(`report card (${runtime})`, () => {
    let target: ContractTarget
    endRequestsWithEachTest(() => target?.idle?.())
    const send = (path: string, init: RequestInit = {}) =>
      fetch(`${target.origin}${path}`, { ...init, signal: testSignal() })
    const control = (method: string, path: string, body?: unknown) =>
      send(`/__sandbox${path}`, {
        method,
        ...(body === undefined
          ? {}
          : {
              headers: { 'content-type': 'application/json' },
              body: JSON.stringify(body),
            }),
      })
    const pets = (key: string | null = FREE) =>
      send(
        '/v1/pets?limit=1',
        key === null ? {} : { headers: { authorization: `Bearer ${key}` } },
      )
    const idOf = (response: Response) =>
      Number(response.headers.get('x-sandbox-request-id'))
    const report = async (headers: Record<string, string> = {}) => {
      const response = await send('/__sandbox/report', { headers })
      const body = await response.json()
      expect(response.status).toBe(200)
      expect(
        openApiProblems('GET', '/__sandbox/report', 200, response.headers, body),
      ).toEqual([])
      return body as {
        session: string
        since: string
        requests: number
        clockFrozen?: true
        findings: Finding[]
      }
    }
    const problems = (findings: Finding[]) =>
      findings.filter((finding) => finding.severity !== 'info')
    const summary = (findings: Finding[]) =>
      findings.map(({ severity, code, count }) => `${severity} ${code} ×${count}`)

    beforeAll(async () => {
      target = await start()
    })
    afterAll(async () => {
      await target?.close()
    })
    beforeEach(async () => {
      expect((await control('POST', '/reset')).status).toBe(200)
      expect((await control('POST', '/clock', { now: T0, freeze: true })).status).toBe(
        200,
      )
    })

    test('a well-behaved client gets an empty report', async () => {
      for (let index = 0; index < 3; index++) expect((await pets()).status).toBe(200)
      expect(await report()).toEqual({
        session: 'default',
        since: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
        requests: 3,
        clockFrozen: true,
        findings: [],
      })
    })

    test('a naive client under rate-limit-countdown gets retry_before_retry_after', async () => {
      await control('PUT', '/scenario', { name: 'rate-limit-countdown' })
      // Five a minute; then it retries at once, three times, and the key is banned.
      for (let index = 0; index < 5; index++) expect((await pets()).status).toBe(200)
      expect((await pets()).status).toBe(429)
      const early: number[] = []
      for (let index = 0; index < 3; index++) {
        const retry = await pets()
        expect(retry.status).toBe(429)
        early.push(idOf(retry))
      }
      const card = await report()
      expect(card.requests).toBe(9)
      expect(summary(card.findings)).toEqual([
        'error api_key_banned ×1',
        'error retry_before_retry_after ×3',
        'info rate_limit_exceeded ×3',
      ])
      expect(card.findings[0]?.message).toMatch(
        /The latest came with 120 s of the ban to run\./,
      )
      expect(card.findings[2]?.message).toMatch(
        /The latest asked the client to wait \d+ s\./,
      )
      const retried = card.findings[1] as Finding
      expect(retried.requestIds).toEqual(early.toReversed())
      expect(retried.message).toMatch(/while a 429 for that key still asked it to wait/)
      expect(retried.fix).toMatch(/Retry-After/)
      // Each example is a request the journal can show.
      const entry = await (await send(`/__sandbox/requests/${early[0]}`)).json()
      expect(entry).toMatchObject({ id: early[0], status: 429, ignoredRetryAfter: true })
    })

    test('the same client honouring Retry-After gets only info', async () => {
      await control('PUT', '/scenario', { name: 'rate-limit-countdown' })
      for (let round = 0; round < 2; round++) {
        for (let index = 0; index < 5; index++) expect((await pets()).status).toBe(200)
        const limited = await pets()
        expect(limited.status).toBe(429)
        // It waits what Retry-After says: here by moving the sandbox clock on.
        const seconds = Number(limited.headers.get('retry-after'))
        await control('POST', '/clock', { advanceSeconds: seconds })
      }
      expect((await pets()).status).toBe(200)
      const card = await report()
      expect(summary(card.findings)).toEqual(['info rate_limit_exceeded ×2'])
      expect(card.findings.filter((finding) => finding.severity !== 'info')).toEqual([])
    })

    test("ky's waits: Retry-After honoured under a scenario's window, then a plain request", async () => {
      // The sandbox clock runs (frozen, nothing is graded by time); each wait is a move.
      await control('POST', '/clock', { freeze: false })
      const limited = () =>
        send('/v1/pets?limit=1', {
          headers: {
            authorization: `Bearer ${FREE}`,
            'x-sandbox-scenario': 'rate-limited',
          },
        })
      expect((await limited()).status).toBe(429)
      await control('POST', '/clock', { advanceSeconds: 60 })
      expect((await limited()).status).toBe(429)
      await control('POST', '/clock', { advanceSeconds: 61 })
      expect((await limited()).status).toBe(429)
      expect((await pets()).status).toBe(200)
      const card = await report()
      expect(summary(card.findings)).toEqual(['info rate_limit_exceeded ×3'])
    })

    test('waiting exactly Retry-After, with or without jitter, is clean; early is not', async () => {
      await control('POST', '/clock', { freeze: false })
      await control('PUT', '/scenario', { name: 'rate-limited' })
      // Exactly what Retry-After asks four times, then with 50 ms more each time.
      let limited = await pets()
      for (let retry = 1; retry <= 8; retry++) {
        expect(limited.status).toBe(429)
        const asked = Number(limited.headers.get('retry-after'))
        const jitter = retry > 4 ? 0.05 * (retry - 4) : 0
        await control('POST', '/clock', { advanceSeconds: asked + jitter })
        limited = await pets()
      }
      expect(problems((await report()).findings)).toEqual([])
      // The same client retrying every 2 s, whatever Retry-After says.
      for (let retry = 0; retry < 4; retry++) {
        await control('POST', '/clock', { advanceSeconds: 2 })
        expect((await pets()).status).toBe(429)
      }
      const card = await report()
      expect(summary(problems(card.findings))).toEqual([
        'error retry_before_retry_after ×4',
        'warning no_exponential_backoff ×2',
      ])
      expect(card.findings[0]?.message).toMatch(
        /The latest was sent 2\.\d s after a 429 whose Retry-After asked for \d+ s \(\d+\.\d s early\)/,
      )
    })

    test('a create sent again after a drop, with no read between, is blind_retry', async () => {
      // Every create of this session's own scenario is dropped; the header picks it.
      const defined = await send('/__sandbox/scenarios/drop-creates', {
        method: 'PUT',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({
          description: 'Every create is dropped.',
          faults: { createPet: { drop: 1 } },
        }),
      })
      expect(defined.status).toBe(201)
      const create = (name: string, dropped: boolean) =>
        send('/v1/pets', {
          method: 'POST',
          headers: {
            authorization: `Bearer ${FREE}`,
            'content-type': 'application/json',
            ...(dropped ? { 'x-sandbox-scenario': 'drop-creates' } : {}),
          },
          body: JSON.stringify({ name, categoryId: 1 }),
        }).then(
          (response) => response.status,
          () => 'dropped' as const,
        )
      expect(await create('Rex', true)).toBe('dropped')
      const again = await create('Rex', false)
      if (again !== 201)
        console.log(again, await (await send('/__sandbox/requests?limit=1')).text())
      expect(again).toBe(201)
      // Looking first is what the fix asks: no finding.
      expect(await create('Bo', true)).toBe('dropped')
      expect((await pets()).status).toBe(200)
      expect(await create('Bo', false)).toBe(201)
      const card = await report()
      expect(summary(problems(card.findings))).toEqual(['warning blind_retry ×1'])
      expect(card.findings.find((f) => f.code === 'blind_retry')?.fix).toMatch(
        /look whether it arrived/,
      )
    })

    test('401s: a missing key is a warning, the expired key you chose is info', async () => {
      const missing = await pets(null)
      await pets('sandbox-expired-key')
      const card = await report()
      expect(summary(card.findings)).toEqual([
        'warning authentication_failed ×1',
        'info authentication_failed ×1',
      ])
      expect(card.findings[0]?.requestIds).toEqual([idOf(missing)])
    })

    test('the same create twice within 10 s is a duplicate (running clock)', async () => {
      await control('POST', '/clock', { freeze: false })
      const create = (name: string) =>
        send('/v1/pets', {
          method: 'POST',
          headers: {
            authorization: `Bearer ${FREE}`,
            'content-type': 'application/json',
          },
          body: JSON.stringify({ name, categoryId: 1 }),
        })
      expect((await create('Rex')).status).toBe(201)
      expect((await create('Bo')).status).toBe(201)
      const twice = await create('Rex')
      const card = await report()
      expect(card).not.toHaveProperty('clockFrozen')
      expect(card.findings).toMatchObject([
        {
          code: 'duplicate_create',
          severity: 'info',
          count: 1,
          requestIds: [idOf(twice)],
        },
      ])
    })

    test('drops of the flaky-network scenario you chose are info', async () => {
      await control('PUT', '/scenario', { name: 'flaky-network' })
      let drops = 0
      for (let index = 0; index < 20; index++) {
        // A dropped request is a network error of the client, a TypeError from fetch.
        const status = await pets().then(
          (response) => response.status,
          () => 'dropped' as const,
        )
        if (status === 'dropped') drops++
        else expect(status).toBe(200)
      }
      expect(drops).toBeGreaterThan(0)
      const card = await report()
      expect(card.requests).toBe(20)
      expect(summary(card.findings)).toEqual([`info connection_dropped ×${drops}`])
      expect(card.findings[0]?.message).toMatch(/faults scenario you chose/)
    })

    test('each session has its own card, named by the header or a session key', async () => {
      await send('/v1/pets/1', { headers: { authorization: `Bearer ${FREE}.report-a` } })
      const byHeader = await report({ 'x-sandbox-session': 'report-a' })
      expect(byHeader.session).toBe('report-a')
      expect(summary(byHeader.findings)).toEqual(['warning deprecated_endpoint ×1'])
      expect(byHeader.findings[0]?.fix).toMatch(/GET \/v1\/pets with the status filter/)
      const byKey = await report({ authorization: `Bearer ${FREE}.report-a` })
      expect(byKey).toEqual(byHeader)
      expect(await report()).toMatchObject({
        session: 'default',
        requests: 0,
        findings: [],
      })
      await control('DELETE', '/sessions/report-a')
    })

    test('POST /__sandbox/reset empties the report', async () => {
      await pets(null)
      expect((await report()).requests).toBe(1)
      const state = await (await control('POST', '/reset')).json()
      // The clock runs again after a reset: the card counts from that moment.
      const card = await report()
      expect(card).toMatchObject({ session: 'default', requests: 0, findings: [] })
      const since = Date.parse(card.since)
      expect(since).toBeLessThanOrEqual(Date.parse(state.clock.now))
      expect(Date.parse(state.clock.now) - since).toBeLessThan(5000)
    })
  })
}
