import type { AddressInfo } from 'node:net'
import { getResponse } from 'msw'
import { expect, test } from 'vitest'
import { SCENARIO_NAMES } from 'petstore-sandbox'
import { createSandboxApp, listenSandboxApp } from 'petstore-sandbox/express'
import { setupSandboxServer } from 'petstore-sandbox/node'

type Call = (path: string, headers?: Record<string, string>) => Promise<Response>
type Way = 'header' | 'runtime switch' | 'startup option'
const FREE = { authorization: 'Bearer sandbox-free-key' }

/** What the first request shows of each built-in scenario. */
const probes: Record<
  string,
  (call: Call, headers: Record<string, string>) => Promise<void>
> = {
  default: async (call, headers) => {
    const reply = await call('/v1/pets', headers)
    expect(reply.status).toBe(200)
    expect(await reply.json()).toHaveLength(20)
  },
  'rate-limited': async (call, headers) => {
    const reply = await call('/v1/pets', headers)
    expect(reply.status).toBe(429)
    expect(reply.headers.get('x-ratelimit-remaining')).toBe('0')
    expect(reply.headers.get('retry-after')).toMatch(/^\d+$/)
    expect((await reply.json()).code).toBe('rate_limit_exceeded')
  },
  'rate-limit-countdown': async (call, headers) => {
    const reply = await call('/v1/pets', headers)
    expect(reply.status).toBe(200)
    expect(reply.headers.get('x-ratelimit-limit')).toBe('5')
    expect(reply.headers.get('x-ratelimit-remaining')).toBe('4')
  },
  'expired-key': async (call, headers) => {
    const reply = await call('/v1/pets', headers)
    expect(reply.status).toBe(401)
    expect((await reply.json()).code).toBe('expired_api_key')
  },
  'invalid-key': async (call, headers) => {
    const reply = await call('/v1/pets', headers)
    expect(reply.status).toBe(401)
    expect((await reply.json()).code).toBe('invalid_api_key')
  },
  'missing-pet': async (call, headers) => {
    const reply = await call('/v1/pets/1', headers)
    expect(reply.status).toBe(404)
    expect((await reply.json()).code).toBe('not_found')
    expect((await call('/v1/pets', headers)).status).toBe(200)
  },
  'empty-store': async (call, headers) => {
    const reply = await call('/v1/pets', headers)
    expect(reply.status).toBe(200)
    expect(await reply.json()).toEqual([])
  },
  'flaky-network': async (call, headers) => {
    // Seed 42's default session drops its 2nd request (src/core/scenarios/faults.test.ts): a
    // network error, which getResponse gives as Response.error() and fetch as a TypeError.
    const outcome = (path: string) =>
      call(path, headers).then(
        (reply) => (reply.type === 'error' ? 'dropped' : reply.status),
        (error: unknown) => (error instanceof TypeError ? 'dropped' : error),
      )
    expect(await outcome('/v1/pets')).toBe(200)
    expect(await outcome('/v1/pets')).toBe('dropped')
    expect(await outcome('/v1/pets')).toBe(200)
  },
  'slow-network': async (call, headers) => {
    const started = performance.now()
    const reply = await call('/v1/pets', headers)
    expect(reply.status).toBe(200)
    expect(performance.now() - started).toBeGreaterThanOrEqual(1450)
  },
}

test('every built-in scenario has a probe here', () => {
  expect(Object.keys(probes).sort()).toEqual([...SCENARIO_NAMES].sort())
})

/** The in-test runtime's handlers, called as msw calls them. */
async function inTest(way: Way, name: string): Promise<[Call, Record<string, string>]> {
  const server = setupSandboxServer(way === 'startup option' ? { scenario: name } : {})
  if (way === 'runtime switch') server.sandbox.useScenario(name)
  const call: Call = async (path, headers) =>
    (await getResponse(
      server.sandbox.handlers,
      new Request(`https://api.example.test${path}`, { headers }),
    )) as Response
  return [call, way === 'header' ? { ...FREE, 'x-sandbox-scenario': name } : FREE]
}

/** The standalone server over real HTTP; closed after the probe. */
async function overHttp(
  way: Way,
  name: string,
  run: (call: Call, headers: Record<string, string>) => Promise<void>,
) {
  const server = await listenSandboxApp(
    createSandboxApp(way === 'startup option' ? { scenario: name } : {}),
    { port: 0, host: '127.0.0.1' },
  )
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
  try {
    if (way === 'runtime switch') {
      const switched = await fetch(`${origin}/__sandbox/scenario`, {
        method: 'PUT',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ name }),
      })
      expect(switched.status).toBe(200)
    }
    await run(
      (path, headers) => fetch(`${origin}${path}`, { headers }),
      way === 'header' ? { ...FREE, 'x-sandbox-scenario': name } : FREE,
    )
  } finally {
    server.closeAllConnections()
    await new Promise<void>((resolve) => server.close(() => resolve()))
  }
}

const ways: Way[] = ['header', 'runtime switch', 'startup option']
const cases = SCENARIO_NAMES.flatMap((name) => ways.map((way) => [name, way] as const))

// Concurrent, so the slow-network cases wait side by side rather than one after another.
test.concurrent.each(cases)(
  '%s through the %s, in the in-test runtime',
  async (name, way) => {
    const [call, headers] = await inTest(way, name)
    await probes[name]?.(call, headers)
  },
)

test.concurrent.each(cases)(
  '%s through the %s, over HTTP from the standalone server',
  async (name, way) => {
    await overHttp(way, name, async (call, headers) => probes[name]?.(call, headers))
  },
)
