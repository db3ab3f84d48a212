import { afterAll, afterEach, beforeAll, expect, test } from 'vitest'
import { setupSandboxServer } from 'petstore-sandbox/node'

const server = setupSandboxServer({ seed: 42 })
beforeAll(() => server.listen({ onUnhandledRequest: 'error' }))
afterEach(() => server.resetHandlers())
afterAll(() => server.close())

test('smoke', async () => {
  const res = await fetch('https://api.example.test/v1/pets?limit=5', {
    headers: { Authorization: 'Bearer sandbox-free-key' },
  })
  console.log(res.status, Object.fromEntries(res.headers), await res.text())
  const r2 = await fetch('https://api.example.test/v1/pets', {
    method: 'POST',
    headers: { Authorization: 'Bearer sandbox-free-key', 'content-type': 'application/json' },
    body: JSON.stringify({ name: '', categoryId: '1', status: 'x' }),
  })
  console.log(r2.status, await r2.text())
  const r3 = await fetch('https://api.example.test/v1/pets/3', { headers: { Authorization: 'Bearer sandbox-free-key' } })
  console.log(r3.status, Object.fromEntries(r3.headers), await r3.text())
  const r4 = await fetch('https://api.example.test/__sandbox')
  console.log(r4.status, await r4.text())
  expect(res.status).toBe(200)
})
