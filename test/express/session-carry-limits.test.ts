import { createSandbox } from 'petstore-sandbox'
import { afterAll, beforeAll, expect, test } from 'vitest'
import { startApp } from './start-app.js'

let app: Awaited<ReturnType<typeof startApp>>
beforeAll(async () => {
  app = await startApp({ seed: 42, count: 5 })
})
afterAll(() => app.close())

const post = (path: string, body: string) =>
  fetch(`${app.origin}${path}`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      authorization: 'Bearer sandbox-free-key',
    },
    body,
  })

test('an import takes bodies over the 64 KiB of other requests, up to 16 MiB; larger is 413', async () => {
  const big = createSandbox({ count: 5_000 })
  const data = await big.exportSession()
  const body = JSON.stringify({ id: 'big', from: data })
  expect(body.length).toBeGreaterThan(256 * 1024)
  const made = await post('/__sandbox/sessions', body)
  expect(made.status).toBe(201)
  expect(app.sandbox.session('big').state().counts.pets).toBe(5_000)

  const huge = JSON.stringify({
    id: 'huge',
    from: { ...data, padding: 'x'.repeat(16 * 1024 * 1024) },
  })
  const refused = await post('/__sandbox/sessions', huge)
  expect(refused.status).toBe(413)
  expect(await refused.json()).toMatchObject({
    code: 'payload_too_large',
    message: expect.stringContaining('16,777,216 bytes'),
  })

  const pet = await post(
    '/v1/pets',
    JSON.stringify({ name: 'x'.repeat(70 * 1024), categoryId: 1 }),
  )
  expect(pet.status).toBe(413)
  expect((await pet.json()).message).toContain('65,536 bytes')
})
