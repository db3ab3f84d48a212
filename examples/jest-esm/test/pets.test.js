import { setupSandboxServer, createSandbox } from 'petstore-sandbox/node'

const server = setupSandboxServer({ seed: 42 })
beforeAll(() => server.listen())
afterEach(() => server.resetHandlers()) // also resets the sandbox: data, limits, clock, scenario
afterAll(() => server.close())

const auth = { Authorization: 'Bearer sandbox-free-key' }

test('lists the seeded pets with the demo key', async () => {
  const response = await fetch('https://api.example.test/v1/pets?limit=5', {
    headers: auth,
  })
  expect(response.status).toBe(200)
  const seeded = createSandbox({ seed: 42 })
  await seeded.ready
  expect(await response.json()).toEqual(seeded.db.pets.all().slice(0, 5))
})

test('a 429 in the rate-limited scenario carries Retry-After and the error body', async () => {
  server.sandbox.useScenario('rate-limited')
  const response = await fetch('https://api.example.test/v1/pets', { headers: auth })
  expect(response.status).toBe(429)
  expect(response.headers.get('retry-after')).toMatch(/^\d+$/)
  expect(await response.json()).toMatchObject({
    code: 'rate_limit_exceeded',
    status: 429,
  })
})

test('a missing key gets 401 missing_api_key', async () => {
  const response = await fetch('https://api.example.test/v1/pets')
  expect(response.status).toBe(401)
  expect(await response.json()).toMatchObject({ code: 'missing_api_key', status: 401 })
})
