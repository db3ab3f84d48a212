/**
 * @jest-environment node
 */
// The same sandbox without a DOM: Jest's node environment needs no setup at all.
const { setupSandboxServer } = require('petstore-sandbox/node')

const server = setupSandboxServer({ seed: 42 })
beforeAll(() => server.listen({ onUnhandledRequest: 'error' }))
afterEach(() => server.resetHandlers())
afterAll(() => server.close())

const auth = { Authorization: 'Bearer sandbox-free-key' }

test('creates a pet and reads it back', async () => {
  const created = await fetch('https://api.example.test/v1/pets', {
    method: 'POST',
    headers: { ...auth, 'Content-Type': 'application/json' },
    body: JSON.stringify({ name: 'Rex', categoryId: 1, status: 'available' }),
  })
  expect(created.status).toBe(201)
  const pet = await created.json()
  expect(pet).toMatchObject({ name: 'Rex', categoryId: 1, status: 'available' })

  const read = await fetch(`https://api.example.test/v1/pets/${pet.id}`, {
    headers: auth,
  })
  expect(await read.json()).toEqual(pet)
})

test('an invalid pet gets 400 validation_failed naming the field', async () => {
  const response = await fetch('https://api.example.test/v1/pets', {
    method: 'POST',
    headers: { ...auth, 'Content-Type': 'application/json' },
    body: JSON.stringify({ name: '', categoryId: 1 }),
  })
  expect(response.status).toBe(400)
  const body = await response.json()
  expect(body).toMatchObject({ code: 'validation_failed', status: 400 })
  expect(body.message).toMatch(/name/)
})

test('after a 429, the window reopens when the sandbox clock moves on (no sleeping)', async () => {
  server.sandbox.useScenario('rate-limit-countdown') // 5 requests a minute
  const list = () => fetch('https://api.example.test/v1/pets', { headers: auth })
  for (let i = 0; i < 5; i += 1) expect((await list()).status).toBe(200)
  const limited = await list()
  expect(limited.status).toBe(429)
  const retryAfter = Number(limited.headers.get('retry-after'))
  expect(retryAfter).toBeGreaterThan(0)

  server.sandbox.clock.advance(retryAfter)
  const again = await list()
  expect(again.status).toBe(200)
  expect(again.headers.get('x-ratelimit-remaining')).toBe('4')
})

test('your own handlers, with msw from petstore-sandbox/node, go in front of the sandbox', async () => {
  // Jest cannot require the installed msw 2.11+ (its CommonJS build needs ESM-only
  // packages), so the package exports msw's handler API from the msw it runs on.
  const { http, HttpResponse } = require('petstore-sandbox/node')
  server.use(
    http.get('*/v1/pets/4242', () =>
      HttpResponse.json({ id: 4242, name: 'Nemo', categoryId: 1, status: 'available' }),
    ),
  )
  const response = await fetch('https://api.example.test/v1/pets/4242', { headers: auth })
  expect(await response.json()).toMatchObject({ id: 4242, name: 'Nemo' })
  // Anything else still reaches the sandbox.
  expect(
    (await fetch('https://api.example.test/v1/pets/1', { headers: auth })).status,
  ).toBe(200)
})
