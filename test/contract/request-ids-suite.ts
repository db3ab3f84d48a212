import { afterAll, beforeAll, beforeEach, describe, expect, test } from 'vitest'
import { endRequestsWithEachTest, testSignal } from './send.js'
import type { ContractTarget } from './suite.js'

const FREE = 'sandbox-free-key'

/**
 * CONTRACT "Request ids", in every runtime: every answer of /v1 and /__sandbox carries
 * X-Sandbox-Request-Id from one counter; a /v1 answer's id is its journal entry's, and
 * GET /__sandbox/requests/{id} finds it in whichever session holds it.
 */
export function defineRequestIdsSuite(
  runtime: string,
  start: () => Promise<ContractTarget>,
) {
  describe(`request ids (${runtime})`, () => {
    let target: ContractTarget
    endRequestsWithEachTest(() => target?.idle?.())
    const send = (path: string, init: RequestInit = {}) =>
      fetch(`${target.origin}${path}`, { ...init, signal: testSignal() })
    const idOf = (response: Response) =>
      Number(response.headers.get('x-sandbox-request-id'))
    const auth = (key: string) => ({ headers: { authorization: `Bearer ${key}` } })

    beforeAll(async () => {
      target = await start()
    })
    afterAll(async () => {
      await target?.close()
    })
    beforeEach(async () => {
      expect((await send('/__sandbox/reset', { method: 'POST' })).status).toBe(200)
    })

    test('every /v1 and /__sandbox answer has an id, one counter across sessions', async () => {
      const answers = [
        await send('/v1/pets?limit=1', auth(FREE)),
        await send('/v1/pets'), // 401
        await send('/v1/animals', auth(FREE)), // 404
        await send('/__sandbox'),
        await send('/v1/pets?limit=1', auth(`${FREE}.ids-suite`)),
        await send('/__sandbox/nothing'),
      ]
      const ids = answers.map(idOf)
      for (const id of ids) expect(Number.isSafeInteger(id) && id > 0).toBe(true)
      // Strictly growing, in the order they were answered, whatever the session.
      expect([...ids].sort((a, b) => a - b)).toEqual(ids)
      expect(new Set(ids).size).toBe(ids.length)
    })

    test("a /v1 answer's id is its journal entry's, found from any session", async () => {
      const listed = await send('/v1/pets?limit=2', auth(FREE))
      const refused = await send('/v1/pets/abc', auth(`${FREE}.ids-other`))
      for (const response of [listed, refused]) {
        const id = idOf(response)
        const entry = await send(`/__sandbox/requests/${id}`)
        expect(entry.status).toBe(200)
        expect(await entry.json()).toMatchObject({ id, status: response.status })
      }
      const other = await (await send(`/__sandbox/requests/${idOf(refused)}`)).json()
      expect(other).toMatchObject({ session: 'ids-other', path: '/v1/pets/abc' })
      // The default session's journal lists it under the same id.
      const { requests } = await (await send('/__sandbox/requests')).json()
      expect(requests[0]).toMatchObject({ id: idOf(listed), path: '/v1/pets?limit=2' })
    })

    test('a refused control request has an id, but no journal entry and no grade', async () => {
      const before = await (await send('/__sandbox/report')).json()
      const refused = await send('/__sandbox/%ZZ')
      expect(refused.status).toBe(400)
      expect(await refused.json()).toMatchObject({ code: 'invalid_path' })
      const id = idOf(refused)
      expect(id).toBeGreaterThan(0)
      expect((await send(`/__sandbox/requests/${id}`)).status).toBe(404)
      const { requests } = await (await send('/__sandbox/requests')).json()
      expect(requests.map((entry: { id: number }) => entry.id)).not.toContain(id)
      const after = await (await send('/__sandbox/report')).json()
      expect(after.requests).toBe(before.requests)
      expect(after.findings).toEqual(before.findings)
    })

    test('a control request has an id but no entry; a bad id is 400', async () => {
      const control = await send('/__sandbox/clock')
      const missing = await send(`/__sandbox/requests/${idOf(control)}`)
      expect(missing.status).toBe(404)
      const body = await missing.json()
      expect(body).toMatchObject({ code: 'not_found', status: 404 })
      expect(body.message).toMatch(/control request/)
      const bad = await send('/__sandbox/requests/abc')
      expect(bad.status).toBe(400)
      expect(await bad.json()).toMatchObject({ code: 'validation_failed' })
    })
  })
}
