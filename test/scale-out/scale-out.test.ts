import { chmodSync, mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { killAll, removeCliBuild, startServer } from '../cli/cli-process.js'
import { findNginx, startNginx, type NginxProcess } from './nginx-process.js'

// examples/scale-out: three standalone servers behind Debian's nginx, routed by a
// consistent hash of the session. Each session lives on one server, so its pets and
// rate limits stay exact although the requests of all sessions spread over all three.

const SEEDED = 5
const FREE_PER_MINUTE = 60
const SESSIONS = 30 // all three servers get one: 1 - 3 * (2/3)^30 > 0.99998
const FROZEN = { now: '2031-01-01T00:00:00Z', freeze: true }

let dir: string
let nginx: NginxProcess | undefined
const replicas: Array<{ address: string; origin: string }> = []

beforeAll(async () => {
  const binary = findNginx()
  if (binary === undefined) {
    // Fail, never skip: CI installs Debian's nginx for exactly this test.
    throw new Error(
      'Failed to start the scale-out test: nginx is missing. Install it with "apt-get update && apt-get install -y nginx".',
    )
  }
  dir = mkdtempSync(join(tmpdir(), 'petstore-scale-out-'))
  chmodSync(dir, 0o755)
  for (let index = 0; index < 3; index++) {
    const { origin } = await startServer(['--seed', '42', '--count', String(SEEDED)])
    replicas.push({ address: new URL(origin).host, origin })
  }
  nginx = await startNginx(
    binary,
    dir,
    replicas.map((replica) => replica.address),
  )
}, 60_000)

afterAll(async () => {
  await nginx?.stop()
  await killAll()
  removeCliBuild()
  if (dir) rmSync(dir, { recursive: true, force: true })
})

/** How a session is named: by the header with a plain key, or by a session key alone. */
function headersOf(session: { id: string; byKey: boolean }): Record<string, string> {
  return session.byKey
    ? { authorization: `Bearer sandbox-free-key.${session.id}` }
    : { 'x-sandbox-session': session.id, authorization: 'Bearer sandbox-free-key' }
}

function call(path: string, headers: Record<string, string>, init: RequestInit = {}) {
  const body = init.body
  return fetch(`${(nginx as NginxProcess).origin}${path}`, {
    ...init,
    headers: { ...headers, ...(body ? { 'content-type': 'application/json' } : {}) },
  })
}

/** Waits until nginx logged at least `count` lines (it writes them as requests end). */
async function accessLogOf(count: number) {
  const deadline = Date.now() + 5000
  for (;;) {
    const lines = (nginx as NginxProcess).accessLog()
    if (lines.length >= count || Date.now() > deadline) return lines
    await new Promise((resolve) => setTimeout(resolve, 25))
  }
}

describe('scale-out: three servers behind nginx, hashed by session', () => {
  test('each session keeps its own pets and exact rate limits on one server, and the sessions use all three', async () => {
    const sessions = Array.from({ length: SESSIONS }, (_, index) => ({
      id: `${index % 2 ? 'key' : 'header'}-${index}`,
      byKey: index % 2 === 1,
      pets: 1 + (index % 3),
    }))
    const sent = new Map<string, number>()
    const seededNames = (
      (await (
        await fetch(`${replicas[0]?.origin}/v1/pets?limit=100`, {
          headers: { authorization: 'Bearer sandbox-enterprise-key' },
        })
      ).json()) as Array<{ name: string }>
    ).map((pet) => pet.name)
    expect(seededNames).toHaveLength(SEEDED)

    // Every session at once, each one's requests in order.
    await Promise.all(
      sessions.map(async (session) => {
        const headers = headersOf(session)
        let requests = 0
        // Freeze the session's own clock, so no minute window ends mid-test.
        const clock = await call('/__sandbox/clock', headers, {
          method: 'POST',
          body: JSON.stringify(FROZEN),
        })
        requests++
        expect(clock.status).toBe(200)
        expect(clock.headers.get('x-sandbox-session-created')).toBe('true')

        let counted = 0
        const expectRemaining = (response: Response) => {
          counted++
          expect(
            response.headers.get('x-ratelimit-remaining'),
            `${session.id}, request ${counted}`,
          ).toBe(String(FREE_PER_MINUTE - counted))
        }
        const names = Array.from(
          { length: session.pets },
          (_, index) => `${session.id}-pet-${index}`,
        )
        for (const name of names) {
          const created = await call('/v1/pets', headers, {
            method: 'POST',
            body: JSON.stringify({ name, categoryId: 1, status: 'available' }),
          })
          requests++
          expect(created.status).toBe(201)
          expectRemaining(created)
        }
        const list = await call('/v1/pets?limit=100', headers)
        requests++
        expect(list.status).toBe(200)
        expectRemaining(list)
        const pets = (await list.json()) as Array<{ name: string }>
        expect(pets.map((pet) => pet.name)).toEqual([...seededNames, ...names])

        while (counted < FREE_PER_MINUTE) {
          const response = await call('/v1/pets?limit=1', headers)
          requests++
          expect(response.status).toBe(200)
          await response.arrayBuffer()
          expectRemaining(response)
        }
        const over = await call('/v1/pets?limit=1', headers)
        requests++
        expect(over.status).toBe(429)
        expect(((await over.json()) as { code: string }).code).toBe('rate_limit_exceeded')
        expect(over.headers.get('x-ratelimit-remaining')).toBe('0')
        sent.set(session.id, requests)
      }),
    )

    // The default session: no header and plain keys (or none), all on one server.
    const plain = { authorization: 'Bearer sandbox-enterprise-key' }
    const created = await call('/v1/pets', plain, {
      method: 'POST',
      body: JSON.stringify({ name: 'default-pet', categoryId: 1, status: 'available' }),
    })
    expect(created.status).toBe(201)
    const { id } = (await created.json()) as { id: number }
    for (let round = 0; round < 10; round++) {
      const headers =
        round % 3 === 0
          ? plain
          : round % 3 === 1
            ? { ...plain, 'x-sandbox-session': 'default' }
            : {}
      const found = await call(`/v1/pets/${id}`, headers)
      expect(found.status, `round ${round}`).toBe(round % 3 === 2 ? 401 : 200)
      await found.arrayBuffer()
    }

    const total = [...sent.values()].reduce((sum, count) => sum + count, 0)
    const log = await accessLogOf(total + 11)
    const serversOf = new Map<string, Set<string>>()
    const countOf = new Map<string, number>()
    for (const line of log) {
      const servers = serversOf.get(line.session) ?? new Set<string>()
      servers.add(line.upstream)
      serversOf.set(line.session, servers)
      countOf.set(line.session, (countOf.get(line.session) ?? 0) + 1)
    }
    const addresses = replicas.map((replica) => replica.address)
    for (const session of sessions) {
      expect(countOf.get(session.id), session.id).toBe(sent.get(session.id))
      expect([...(serversOf.get(session.id) ?? [])], session.id).toHaveLength(1)
    }
    const used = new Set(sessions.flatMap((session) => [...serversOf.get(session.id)!]))
    expect([...used].sort()).toEqual([...addresses].sort())
    // The readiness checks, the create, the reads: every one on the same server.
    expect([...(serversOf.get('default') ?? [])]).toHaveLength(1)
    expect(countOf.get('default')).toBeGreaterThanOrEqual(11)

    // No state is shared: each server knows exactly the sessions routed to it.
    for (const replica of replicas) {
      const listed = (await (
        await fetch(`${replica.origin}/__sandbox/sessions`)
      ).json()) as { sessions: Array<{ id: string; pets: number }> }
      const expected = sessions.filter(
        (session) => [...serversOf.get(session.id)!][0] === replica.address,
      )
      expect(listed.sessions.map((entry) => entry.id).sort()).toEqual(
        expected.map((session) => session.id).sort(),
      )
      for (const entry of listed.sessions) {
        const session = sessions.find((candidate) => candidate.id === entry.id)
        expect(entry.pets, entry.id).toBe(SEEDED + (session?.pets ?? 0))
      }
    }
  }, 60_000)

  test('a session made with POST /__sandbox/sessions and its header keeps its scenario; DELETE finds it by its path', async () => {
    const made = await call(
      '/__sandbox/sessions',
      { 'x-sandbox-session': 'scenario-1' },
      {
        method: 'POST',
        body: JSON.stringify({ id: 'scenario-1', scenario: 'rate-limited' }),
      },
    )
    expect(made.status).toBe(201)
    const { keys } = (await made.json()) as { keys: { free: string } }
    expect(keys.free).toBe('sandbox-free-key.scenario-1')
    const limited = await call('/v1/pets', { authorization: `Bearer ${keys.free}` })
    expect(limited.status).toBe(429)
    await limited.arrayBuffer()

    const ended = await call('/__sandbox/sessions/scenario-1', {}, { method: 'DELETE' })
    expect(ended.status).toBe(204)
    const again = await call('/__sandbox/sessions/scenario-1', {}, { method: 'DELETE' })
    expect(again.status).toBe(404)
    await again.arrayBuffer()
    const servers = new Set(
      (nginx as NginxProcess)
        .accessLog()
        .filter((line) => line.session === 'scenario-1')
        .map((line) => line.upstream),
    )
    expect(servers.size).toBe(1)
  })
})
