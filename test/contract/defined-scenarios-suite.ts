import { afterAll, beforeAll, beforeEach, describe, expect, test } from 'vitest'
import { endRequestsWithEachTest, testSignal } from './send.js'
import type { ContractTarget } from './suite.js'

/**
 * CONTRACT "Scenarios defined at run time", in every runtime: PUT/DELETE
 * /__sandbox/scenarios/{name}, per session, validated like scenario files.
 */
export function defineDefinedScenariosSuite(
  runtime: string,
  start: () => Promise<ContractTarget>,
) {
  describe(`scenarios defined at run time (${runtime})`, () => {
    let target: ContractTarget
    endRequestsWithEachTest(() => target?.idle?.())
    const call = (
      path: string,
      { session, ...init }: RequestInit & { session?: string; json?: unknown } = {},
    ) => {
      const headers: Record<string, string> = {
        ...(init.headers as Record<string, string>),
      }
      if (session) headers['x-sandbox-session'] = session
      let body = init.body
      if ('json' in init) {
        headers['content-type'] = 'application/json'
        body = JSON.stringify(init.json)
      }
      const { json: _json, ...rest } = init as RequestInit & { json?: unknown }
      return fetch(`${target.origin}${path}`, {
        ...rest,
        headers,
        body,
        signal: testSignal(),
      })
    }
    const define = (name: string, json: unknown, session = 'alice') =>
      call(`/__sandbox/scenarios/${name}`, { method: 'PUT', json, session })
    const getPet = (session: string, scenario?: string) =>
      call('/v1/pets/1', {
        session,
        headers: {
          authorization: 'Bearer sandbox-free-key',
          ...(scenario ? { 'x-sandbox-scenario': scenario } : {}),
        },
      })
    const teapot = {
      description: 'getPet is a teapot',
      errors: { getPet: { status: 418, code: 'teapot' } },
    }

    beforeAll(async () => {
      target = await start()
    })
    afterAll(async () => {
      await target?.close()
    })
    beforeEach(async () => {
      for (const session of ['alice', 'bob']) {
        await call('/__sandbox/reset', { method: 'POST', session })
      }
    })

    test('PUT defines a scenario for that session only: 201, then 200 when replaced', async () => {
      const made = await define('teapot', teapot)
      expect(made.status).toBe(201)
      expect(await made.json()).toMatchObject({ name: 'teapot', ...teapot })
      expect((await getPet('alice', 'teapot')).status).toBe(418)
      // Another session does not know it.
      const other = await getPet('bob', 'teapot')
      expect(other.status).toBe(400)
      const refused = await other.json()
      expect(refused).toMatchObject({ code: 'unknown_scenario' })
      // It says where run-time scenarios live, and alice's names hers.
      expect(refused.message).toMatch(/PUT \/__sandbox\/scenarios\/\{name\}/)
      const own = await (await getPet('alice', 'nothing-here')).json()
      expect(own.message).toMatch(/session alice also defines teapot/)
      // Switched to, then replaced: the session gets the new definition at once.
      const use = await call('/__sandbox/scenario', {
        method: 'PUT',
        json: { name: 'teapot' },
        session: 'alice',
      })
      expect(use.status).toBe(200)
      expect((await getPet('alice')).status).toBe(418)
      const replaced = await define('teapot', {
        description: 'now 503',
        errors: { getPet: { status: 503, code: 'service_unavailable' } },
      })
      expect(replaced.status).toBe(200)
      expect((await getPet('alice')).status).toBe(503)
      const state = await (await call('/__sandbox', { session: 'alice' })).json()
      expect(state.scenario.name).toBe('teapot')
      expect(state.scenarios.map((s: { name: string }) => s.name)).toContain('teapot')
    })

    test('mistakes are 400 naming the field; keys and loaded names are refused', async () => {
      const cases: Array<[string, unknown, RegExp]> = [
        [
          'bad',
          { description: 'x', errors: { getPet: { status: 99 } } },
          /errors\.getPet/,
        ],
        ['bad', { errors: {} }, /description/],
        ['bad', { description: 'x', keys: { 'my-key': 'free' } }, /keys/],
        ['rate-limited', { description: 'mine' }, /built-in or loaded/],
        ['bad', { name: 'other', description: 'x' }, /differs from the path/],
        ['Bad_Name', { description: 'x' }, /kebab-case/],
        ['constructor', { description: 'x' }, /every JavaScript object has/],
      ]
      for (const [name, body, message] of cases) {
        const answer = await define(name, body)
        expect(answer.status, name).toBe(400)
        const error = await answer.json()
        expect(error.code).toBe('validation_failed')
        expect(error.message).toMatch(message)
        // A definition's words: "define", and the fields it may have (no keys).
        if (!/differs from the path/.test(error.message))
          expect(error.message).toMatch(/^Failed to define the scenario/)
        if (/allowed fields/.test(error.message))
          expect(error.message).not.toMatch(/allowed fields are[^.]*keys/)
      }
    })

    test('DELETE removes it (204); the active one goes back to the startup scenario', async () => {
      await define('teapot', teapot)
      await call('/__sandbox/scenario', {
        method: 'PUT',
        json: { name: 'teapot' },
        session: 'alice',
      })
      const removed = await call('/__sandbox/scenarios/teapot', {
        method: 'DELETE',
        session: 'alice',
      })
      expect(removed.status).toBe(204)
      expect((await getPet('alice')).status).toBe(200)
      const again = await call('/__sandbox/scenarios/teapot', {
        method: 'DELETE',
        session: 'alice',
      })
      expect(again.status).toBe(404)
      const builtIn = await call('/__sandbox/scenarios/missing-pet', {
        method: 'DELETE',
        session: 'alice',
      })
      expect(builtIn.status).toBe(400)
    })

    test('a reset of the session clears them; each session has its own data', async () => {
      const pets = (name: string) => ({
        description: `one pet named ${name}`,
        data: { pets: [{ id: 1, name, categoryId: 1 }] },
      })
      await define('one-pet', pets('Alice'), 'alice')
      await define('one-pet', pets('Bob'), 'bob')
      expect(await (await getPet('alice', 'one-pet')).json()).toMatchObject({
        name: 'Alice',
      })
      expect(await (await getPet('bob', 'one-pet')).json()).toMatchObject({ name: 'Bob' })
      await call('/__sandbox/reset', { method: 'POST', session: 'alice' })
      expect((await getPet('alice', 'one-pet')).status).toBe(400)
      expect((await getPet('bob', 'one-pet')).status).toBe(200)
    })

    test('a session may define at most 20', async () => {
      for (let i = 0; i < 20; i++) {
        expect((await define(`s-${i}`, { description: `${i}` })).status).toBe(201)
      }
      const over = await define('s-20', { description: 'one too many' })
      expect(over.status).toBe(400)
      expect((await over.json()).message).toMatch(/20/)
      // Replacing one is still fine.
      expect((await define('s-3', { description: 'again' })).status).toBe(200)
    })
  })
}
