import { afterAll, beforeAll, beforeEach, describe, expect, test } from 'vitest'
import { endRequestsWithEachTest, testSignal } from './send.js'
import { dropsRequest } from '../../src/core/scenarios/faults.js'
import { BUILT_IN_SCENARIOS } from '../../src/core/scenarios/scenarios.js'
import type { ContractTarget } from './suite.js'

const FREE = 'Bearer sandbox-free-key'
const FLAKY = { 'x-sandbox-scenario': 'flaky-network' }
const flaky = BUILT_IN_SCENARIOS.find((scenario) => scenario.name === 'flaky-network')!

/** The request numbers of a session that flaky-network drops, as the core computes them (seed 42). */
const expectedDrops = (session: string, count: number) =>
  Array.from({ length: count }, (_, index) => index + 1).filter((requestNumber) =>
    dropsRequest(flaky, 'listPets', { seed: 42, session, requestNumber }),
  )

/** A request's outcome: its status, or `dropped` when the client got no answer. */
type Outcome = number | 'dropped'

/**
 * Dropped connections (issue 23, CONTRACT "Dropped connections") in every runtime: the
 * same requests of a seed and session drop, as a network error of the client (a
 * TypeError from fetch), with nothing written or counted, and the journal marks them.
 * `start` gives a sandbox of seed 42.
 */
export function defineFaultsSuite(runtime: string, start: () => Promise<ContractTarget>) {
  describe(`dropped connections (${runtime})`, () => {
    let target: ContractTarget
    endRequestsWithEachTest(() => target?.idle?.())

    async function send(
      method: string,
      path: string,
      headers: Record<string, string>,
      json?: unknown,
    ): Promise<{ outcome: Outcome; response?: Response }> {
      try {
        const response = await fetch(`${target.origin}${path}`, {
          signal: testSignal(),
          method,
          headers: {
            ...headers,
            ...(json === undefined ? {} : { 'content-type': 'application/json' }),
          },
          ...(json === undefined ? {} : { body: JSON.stringify(json) }),
        })
        return { outcome: response.status, response }
      } catch (error) {
        // What every fetch gives for a connection that got no answer.
        expect(error).toBeInstanceOf(TypeError)
        return { outcome: 'dropped' }
      }
    }

    /** Sends `count` GETs one after another; the numbers (from 1) of those that dropped. */
    async function dropsOf(headers: Record<string, string>, count: number) {
      const dropped: number[] = []
      for (let number = 1; number <= count; number++) {
        const { outcome } = await send('GET', '/v1/pets?limit=1', headers)
        if (outcome === 'dropped') dropped.push(number)
        else expect(outcome).toBe(200)
      }
      return dropped
    }

    const control = async (method: string, path: string, body?: unknown) => {
      const response = await fetch(`${target.origin}/__sandbox${path}`, {
        signal: testSignal(),
        method,
        headers: { 'content-type': 'application/json' },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      })
      expect(response.status).toBeLessThan(300)
      return response.json()
    }

    beforeAll(async () => {
      target = await start()
    })
    afterAll(() => target.close())
    beforeEach(async () => {
      await control('POST', '/reset')
      // One minute window for the whole test: the counts below do not cross a minute.
      await control('POST', '/clock', { now: '2027-03-01T10:00:00Z', freeze: true })
    })

    test('flaky-network drops the same requests of seed 42 in every runtime, as a network error', async () => {
      expect(await dropsOf({ authorization: FREE, ...FLAKY }, 40)).toEqual([
        2, 5, 7, 15, 19, 20, 23, 25, 36,
      ])
    })

    test('a reset starts the count again, and with it the same drops', async () => {
      expect(await dropsOf({ authorization: FREE, ...FLAKY }, 8)).toEqual([2, 5, 7])
      await control('POST', '/reset')
      expect(await dropsOf({ authorization: FREE, ...FLAKY }, 8)).toEqual([2, 5, 7])
    })

    test('the demo key selects flaky-network; its session key drops the requests of that session', async () => {
      const key = 'Bearer sandbox-flaky-network-key'
      expect(await dropsOf({ authorization: key }, 20)).toEqual(
        expectedDrops('default', 20),
      )
      const alice = await dropsOf({ authorization: `${key}.alice` }, 40)
      expect(alice).toEqual(expectedDrops('alice', 40))
      expect(alice).toEqual([13, 17, 21, 25, 33, 34, 36])
    })

    test('a dropped request is journalled with status 0 and not counted against the limit', async () => {
      const headers = { authorization: FREE, ...FLAKY }
      const outcomes: Outcome[] = []
      let last: Response | undefined
      for (let number = 1; number <= 10; number++) {
        const { outcome, response } = await send('GET', '/v1/pets?limit=1', headers)
        outcomes.push(outcome)
        if (response) last = response
      }
      expect(outcomes.filter((outcome) => outcome === 'dropped')).toHaveLength(3)
      // Free: 60 a minute; 7 answered requests, the 3 dropped ones never reached the limiter.
      expect(last?.headers.get('x-ratelimit-remaining')).toBe('53')
      const { requests } = await control('GET', '/requests')
      const dropped = requests.filter((entry: { dropped?: true }) => entry.dropped)
      expect(dropped).toHaveLength(3)
      expect(dropped[0]).toMatchObject({
        method: 'GET',
        path: '/v1/pets?limit=1',
        status: 0,
        dropped: true,
        scenario: 'flaky-network',
        operation: 'listPets',
        // The key it named, not checked: the drop came before authentication.
        key: 'sandbox-free-key',
        plan: 'free',
      })
      expect(dropped[0]).not.toHaveProperty('rateLimit')
      expect(requests.filter((entry: { status: number }) => entry.status === 0)).toEqual(
        dropped,
      )
    })

    test('a dropped createPet writes nothing: only the answered ones are pets', async () => {
      const headers = { authorization: FREE, ...FLAKY, 'x-sandbox-session': 'writer' }
      const created: string[] = []
      const drops: number[] = []
      for (let number = 1; number <= 12; number++) {
        const name = `Faulty ${number}`
        const { outcome } = await send('POST', '/v1/pets', headers, {
          name,
          categoryId: 1,
        })
        if (outcome === 'dropped') drops.push(number)
        else {
          expect(outcome).toBe(201)
          created.push(name)
        }
      }
      expect(drops).toEqual(expectedDrops('writer', 12))
      expect(drops.length).toBeGreaterThan(0)
      const list = { authorization: FREE, 'x-sandbox-session': 'writer' }
      const { response } = await send('GET', '/v1/pets?limit=100', list)
      const names = ((await response?.json()) as Array<{ name: string }>)
        .map((pet) => pet.name)
        .filter((name) => name.startsWith('Faulty'))
      expect(names).toEqual(created)
    })

    test('the control API is never dropped', async () => {
      await control('PUT', '/scenario', { name: 'flaky-network' })
      for (let number = 1; number <= 20; number++) await control('GET', '')
      expect(await dropsOf({ authorization: FREE }, 8)).toEqual([2, 5, 7])
    })
  })
}
