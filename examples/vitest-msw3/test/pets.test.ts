import { describe, expect, test } from 'vitest'
import { createSandbox, problems } from 'petstore-sandbox/node'
import { server } from './setup.js'

const API = 'https://api.example.test/v1'
const auth = { Authorization: 'Bearer sandbox-free-key' }

describe('node environment', () => {
  test('lists the seeded pets with the demo key', async () => {
    const response = await fetch(`${API}/pets?limit=5`, { headers: auth })
    expect(response.status).toBe(200)
    expect(response.headers.get('x-ratelimit-limit')).toBe('60')
    const seeded = createSandbox({ seed: 42 })
    await seeded.ready
    expect(await response.json()).toEqual(seeded.db.pets.all().slice(0, 5))
  })

  test('a 429 in the rate-limited scenario carries Retry-After and the error body', async () => {
    server.sandbox.useScenario('rate-limited')
    const response = await fetch(`${API}/pets`, { headers: auth })
    expect(response.status).toBe(429)
    expect(response.headers.get('retry-after')).toMatch(/^\d+$/)
    expect(await response.json()).toMatchObject({
      code: 'rate_limit_exceeded',
      status: 429,
    })
  })

  test('creates a pet, and the reset after each test removes it', async () => {
    const created = await fetch(`${API}/pets`, {
      method: 'POST',
      headers: { ...auth, 'Content-Type': 'application/json' },
      body: JSON.stringify({ name: 'Biscuit', categoryId: 1 }),
    })
    expect(created.status).toBe(201)
    expect(await created.json()).toMatchObject({ name: 'Biscuit', categoryId: 1 })
  })

  test('the report card finds a retry sent before Retry-After', async () => {
    server.sandbox.useScenario('rate-limited')
    for (let attempt = 0; attempt < 2; attempt++)
      await fetch(`${API}/pets`, { headers: auth })
    expect(problems(server.sandbox.report()).map((finding) => finding.code)).toContain(
      'retry_before_retry_after',
    )
  })
})
