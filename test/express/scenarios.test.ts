import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, test } from 'vitest'
import { SCENARIO_NAMES } from 'petstore-sandbox/express'
import { startApp } from './start-app.js'

// The startup option over real HTTP, for every built-in scenario (the header and the
// control endpoint are covered by the contract suite; the CLI flag by test/cli).
const FREE = { authorization: 'Bearer sandbox-free-key' }
let running: Awaited<ReturnType<typeof startApp>> | undefined
afterEach(async () => {
  await running?.close()
  running = undefined
})

async function start(scenario: string) {
  running = await startApp({
    seed: 42,
    scenario,
    clock: { now: '2027-03-01T10:00:30Z', frozen: true },
  })
  const { origin } = running
  return {
    origin,
    get: (path: string, headers: Record<string, string> = FREE) =>
      fetch(`${origin}${path}`, { headers }),
    create: () =>
      fetch(`${origin}/v1/pets`, {
        method: 'POST',
        headers: { ...FREE, 'content-type': 'application/json' },
        body: JSON.stringify({ name: 'Rex', categoryId: 1 }),
      }),
    control: (method: string, path: string, body?: unknown) =>
      fetch(`${origin}/__sandbox${path}`, {
        method,
        headers: { 'content-type': 'application/json' },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      }),
  }
}
const code = async (response: Response) =>
  ((await response.json()) as { code: string }).code

test('every built-in scenario is covered here', () => {
  expect(SCENARIO_NAMES.toSorted()).toEqual([
    'default',
    'empty-store',
    'expired-key',
    'flaky-network',
    'invalid-key',
    'missing-pet',
    'rate-limit-countdown',
    'rate-limited',
    'slow-network',
  ])
})

describe('started with a scenario, the server behaves as it says', () => {
  test('default', async () => {
    const api = await start('default')
    expect((await api.get('/v1/pets')).status).toBe(200)
  })

  test('rate-limited: 429 with Retry-After and Remaining 0 from the first request, then a ban', async () => {
    const api = await start('rate-limited')
    const first = await api.get('/v1/pets')
    expect(first.status).toBe(429)
    expect(first.headers.get('x-ratelimit-remaining')).toBe('0')
    expect(Number(first.headers.get('retry-after'))).toBeGreaterThan(0)
    expect(await code(first)).toBe('rate_limit_exceeded')
    let last = first
    for (let index = 0; index < 10; index++) last = await api.get('/v1/pets')
    expect(await code(last)).toBe('api_key_temporarily_banned')
  })

  test('rate-limit-countdown: 5 a minute, the 429, and the recovery a minute later', async () => {
    const api = await start('rate-limit-countdown')
    const remaining: string[] = []
    for (let index = 0; index < 5; index++)
      remaining.push(
        (await api.get('/v1/pets?limit=1')).headers.get('x-ratelimit-remaining') ?? '',
      )
    expect(remaining).toEqual(['4', '3', '2', '1', '0'])
    expect((await api.get('/v1/pets?limit=1')).status).toBe(429)
    await api.control('POST', '/clock', { advanceSeconds: 60 })
    expect((await api.get('/v1/pets?limit=1')).status).toBe(200)
  })

  test.each([
    ['expired-key', 'expired_api_key'],
    ['invalid-key', 'invalid_api_key'],
  ])('%s: every key answers 401 %s', async (scenario, expected) => {
    const api = await start(scenario)
    const response = await api.get('/v1/pets')
    expect(response.status).toBe(401)
    expect(await code(response)).toBe(expected)
  })

  test('missing-pet: getPet is 404 for every id, listing works', async () => {
    const api = await start('missing-pet')
    const response = await api.get('/v1/pets/1')
    expect(response.status).toBe(404)
    expect(await code(response)).toBe('not_found')
    expect((await api.get('/v1/pets')).status).toBe(200)
  })

  test('empty-store: an empty list until a pet is created', async () => {
    const api = await start('empty-store')
    expect(await (await api.get('/v1/pets')).json()).toEqual([])
    expect((await api.create()).status).toBe(201)
    expect(await (await api.get('/v1/pets')).json()).toHaveLength(1)
  })

  test('slow-network: responses take at least 1.5 s', async () => {
    const api = await start('slow-network')
    const started = performance.now()
    expect((await api.get('/v1/pets?limit=1')).status).toBe(200)
    expect(performance.now() - started).toBeGreaterThanOrEqual(1450)
  })

  test('flaky-network: requests 2, 5 and 7 of seed 42 get no answer (fetch rejects), the others 200', async () => {
    const api = await start('flaky-network')
    const outcomes: Array<number | string> = []
    for (let index = 0; index < 7; index++) {
      outcomes.push(
        await api.get('/v1/pets?limit=1').then(
          (response) => response.status,
          (error: Error) => error.name,
        ),
      )
    }
    expect(outcomes).toEqual([200, 'TypeError', 200, 200, 'TypeError', 200, 'TypeError'])
  })

  test('a reset returns to the startup scenario after a runtime switch', async () => {
    const api = await start('missing-pet')
    await api.control('PUT', '/scenario', { name: 'default' })
    expect((await api.get('/v1/pets/1')).status).toBe(200)
    await api.control('POST', '/reset')
    expect((await api.get('/v1/pets/1')).status).toBe(404)
  })
})

test("a path loads the user's own scenario and makes its name selectable", async () => {
  const folder = mkdtempSync(join(tmpdir(), 'petstore-scenario-'))
  const file = join(folder, 'flaky.json')
  writeFileSync(
    file,
    JSON.stringify({
      name: 'flaky',
      description: 'createPet fails',
      errors: { createPet: { status: 503, code: 'service_unavailable' } },
    }),
  )
  try {
    const api = await start(file)
    expect((await api.create()).status).toBe(503)
    expect(
      (await api.get('/v1/pets', { ...FREE, 'x-sandbox-scenario': 'default' })).status,
    ).toBe(200)
    const state = (await (await api.control('GET', '')).json()) as {
      scenario: { name: string }
    }
    expect(state.scenario.name).toBe('flaky')
  } finally {
    rmSync(folder, { recursive: true, force: true })
  }
})
