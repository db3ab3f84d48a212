import { getResponse } from 'msw'
import { expect, test } from 'vitest'
import { createSandbox } from 'petstore-sandbox'

const call = (
  sandbox: ReturnType<typeof createSandbox>,
  init: RequestInit & { path?: string; key?: string },
) =>
  getResponse(
    sandbox.handlers,
    new Request(`https://api.example.test${init.path ?? '/v1/pets'}`, {
      ...init,
      headers: {
        authorization: `Bearer ${init.key ?? 'sandbox-enterprise-key'}`,
        'content-type': 'application/json',
      },
    }),
  ) as Promise<Response>

test('500 concurrent creates get unique, increasing ids and all appear in the list', async () => {
  const sandbox = createSandbox({ count: 0 })
  const replies = await Promise.all(
    Array.from({ length: 500 }, (_, index) =>
      call(sandbox, {
        method: 'POST',
        body: JSON.stringify({ name: `Pet ${index}`, categoryId: 1 }),
      }),
    ),
  )
  const created = await Promise.all(replies.map((reply) => reply.json()))
  expect(replies.every((reply) => reply.status === 201)).toBe(true)
  const ids = created.map((pet) => pet.id)
  expect(new Set(ids).size).toBe(500)
  // Ids follow the order the requests arrived in.
  expect(ids).toEqual(Array.from({ length: 500 }, (_, index) => index + 1))
  const listed: Array<{ id: number }> = []
  for (let from = 0; from < 500; from += 100) {
    // The API has only `limit` (max 100), so read the store the tests own for the rest.
    listed.push(...sandbox.db.pets.all().slice(from, from + 100))
  }
  expect(listed.map((pet) => pet.id)).toEqual(ids)
  const firstPage = await (await call(sandbox, { path: '/v1/pets?limit=100' })).json()
  expect(firstPage).toEqual(created.slice(0, 100))
})

test('exactly the plan limit of concurrent requests is let through in a window', async () => {
  const sandbox = createSandbox({ clock: { now: '2027-01-01T00:00:00Z', frozen: true } })
  const replies = await Promise.all(
    Array.from({ length: 100 }, () => call(sandbox, { key: 'sandbox-free-key' })),
  )
  const statuses = replies.map((reply) => reply.status)
  expect(statuses.filter((status) => status === 200)).toHaveLength(60)
  expect(statuses.filter((status) => status === 429)).toHaveLength(40)
  const remaining = replies
    .filter((reply) => reply.status === 200)
    .map((reply) => Number(reply.headers.get('x-ratelimit-remaining')))
  expect(remaining.sort((a, b) => a - b)).toEqual(
    Array.from({ length: 60 }, (_, index) => index),
  )
})
