import { afterEach, expect, test } from 'vitest'
import type { Pet } from 'petstore-sandbox/express'
import { startApp } from '../express/start-app.js'

// concurrency.test.ts over real HTTP: hundreds of sockets at once, the Express adapter
// and Node's parser between the clients and the sandbox.

const bearer = (key: string) => ({ authorization: `Bearer sandbox-${key}-key` })
let app: Awaited<ReturnType<typeof startApp>> | undefined
afterEach(async () => {
  await app?.close()
  app = undefined
})

const freeze = async (origin: string, now: string) => {
  const response = await fetch(`${origin}/__sandbox/clock`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ now, freeze: true }),
  })
  expect(response.status).toBe(200)
}

test('400 concurrent creates over HTTP get unique, consecutive ids, and every one is served', async () => {
  app = await startApp({ seed: 42, count: 50 })
  const { origin } = app
  const replies = await Promise.all(
    Array.from({ length: 400 }, (_, index) =>
      fetch(`${origin}/v1/pets`, {
        method: 'POST',
        headers: { ...bearer('enterprise'), 'content-type': 'application/json' },
        body: JSON.stringify({ name: `Pet ${index}`, categoryId: 1 + (index % 7) }),
      }),
    ),
  )
  expect(replies.map((reply) => reply.status)).toEqual(Array(400).fill(201))
  const created = (await Promise.all(replies.map((reply) => reply.json()))) as Pet[]
  // Each request got its own pet: the one it sent.
  created.forEach((pet, index) => {
    expect(pet).toEqual({ id: pet.id, name: `Pet ${index}`, categoryId: 1 + (index % 7) })
  })
  const ids = created.map((pet) => pet.id).sort((a, b) => a - b)
  expect(ids).toEqual(Array.from({ length: 400 }, (_, index) => 51 + index))

  // The list (limit at most 100, no second page) shows the first of them in id order;
  // every one of them is served by id.
  const list = (await (
    await fetch(`${origin}/v1/pets?limit=100`, { headers: bearer('enterprise') })
  ).json()) as Pet[]
  const byId = [...created].sort((a, b) => a.id - b.id)
  expect(list.slice(50)).toEqual(byId.slice(0, 50))
  const served = await Promise.all(
    byId.map(async (pet) => {
      const response = await fetch(`${origin}/v1/pets/${pet.id}`, {
        headers: bearer('enterprise'),
      })
      return response.status === 200 ? ((await response.json()) as Pet) : response.status
    }),
  )
  expect(served).toEqual(byId)
  expect(app.sandbox.db.pets.all().slice(50)).toEqual(byId)

  // The next create continues after the last id.
  const next = await fetch(`${origin}/v1/pets`, {
    method: 'POST',
    headers: { ...bearer('enterprise'), 'content-type': 'application/json' },
    body: JSON.stringify({ name: 'Last', categoryId: 1 }),
  })
  expect(((await next.json()) as Pet).id).toBe(451)
}, 60_000) // bounded by its 400 requests; a busy machine needs more than the default 20 s

test('exactly the Free plan limit (60) of 100 concurrent requests is let through in a frozen window', async () => {
  app = await startApp({ seed: 42 })
  await freeze(app.origin, '2027-03-01T12:00:30Z')
  const { origin } = app
  const replies = await Promise.all(
    Array.from({ length: 100 }, () =>
      fetch(`${origin}/v1/pets?limit=1`, { headers: bearer('free') }),
    ),
  )
  const statuses = replies.map((reply) => reply.status)
  expect(statuses.filter((status) => status === 200)).toHaveLength(60)
  expect(statuses.filter((status) => status === 429)).toHaveLength(40)
  const remaining = replies
    .filter((reply) => reply.status === 200)
    .map((reply) => Number(reply.headers.get('x-ratelimit-remaining')))
    .sort((a, b) => a - b)
  expect(remaining).toEqual(Array.from({ length: 60 }, (_, index) => index))

  const refused = replies.filter((reply) => reply.status === 429)
  const codes = await Promise.all(
    refused.map(async (reply) => ((await reply.json()) as { code: string }).code),
  )
  // The 61st request is told to wait 30 s; the 9 sent while that wait runs are told
  // again; the 10th of them earns the 5-minute ban, and the rest are banned.
  expect(codes.filter((code) => code === 'rate_limit_exceeded')).toHaveLength(10)
  expect(codes.filter((code) => code === 'api_key_temporarily_banned')).toHaveLength(30)
  for (const reply of refused) {
    expect(reply.headers.get('x-ratelimit-remaining')).toBe('0')
    expect(['30', '300']).toContain(reply.headers.get('retry-after'))
  }
  // The journal saw the same 100 answers.
  const { requests } = (await (
    await fetch(`${origin}/__sandbox/requests?limit=100`)
  ).json()) as { requests: Array<{ status: number }> }
  expect(requests.filter((entry) => entry.status === 200)).toHaveLength(60)
  expect(requests.filter((entry) => entry.status === 429)).toHaveLength(40)
})

test('exactly 60 of 150 concurrent creates with the Free key are stored, and nothing else', async () => {
  app = await startApp({ seed: 42, count: 10 })
  await freeze(app.origin, '2027-03-01T12:00:00Z')
  const { origin } = app
  const replies = await Promise.all(
    Array.from({ length: 150 }, (_, index) =>
      fetch(`${origin}/v1/pets`, {
        method: 'POST',
        headers: { ...bearer('free'), 'content-type': 'application/json' },
        body: JSON.stringify({ name: `Free ${index}`, categoryId: 3 }),
      }),
    ),
  )
  const accepted = (await Promise.all(
    replies.filter((reply) => reply.status === 201).map((reply) => reply.json()),
  )) as Pet[]
  expect(accepted).toHaveLength(60)
  expect(replies.filter((reply) => reply.status === 429)).toHaveLength(90)
  expect(app.sandbox.db.pets.all().slice(10)).toEqual(
    [...accepted].sort((a, b) => a.id - b.id),
  )
  expect(accepted.map((pet) => pet.id).sort((a, b) => a - b)).toEqual(
    Array.from({ length: 60 }, (_, index) => 11 + index),
  )
})

test('exactly the Pro plan limit (300) of 400 concurrent requests is let through', async () => {
  app = await startApp({ seed: 42, clock: { now: '2027-03-01T12:00:59Z', frozen: true } })
  const { origin } = app
  const replies = await Promise.all(
    Array.from({ length: 400 }, (_, index) =>
      fetch(`${origin}/v1/pets/${(index % 60) - 5}`, { headers: bearer('pro') }),
    ),
  )
  // Found (200) or not (404, ids 0 and below too), every request counts; only the
  // limiter answers 429.
  const statuses = replies.map((reply) => reply.status)
  expect(statuses.filter((status) => status !== 429)).toHaveLength(300)
  expect(statuses.filter((status) => status === 429)).toHaveLength(100)
  await Promise.all(replies.map((reply) => reply.arrayBuffer()))
})
