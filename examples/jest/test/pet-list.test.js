// Runs in jest-fixed-jsdom (jest.config.js): a DOM, and msw's setupServer in the same test.
const { setupSandboxServer, createSandbox } = require('petstore-sandbox/node')
const { renderPetList } = require('../src/pet-list')

const server = setupSandboxServer({ seed: 42 })
beforeAll(() => server.listen({ onUnhandledRequest: 'error' }))
afterEach(() => server.resetHandlers()) // also resets the sandbox: data, limits, clock, scenario
afterAll(() => server.close())

test('lists the seeded pets with the demo key', async () => {
  const container = document.createElement('div')
  const result = await renderPetList(container, { apiKey: 'sandbox-free-key' })

  expect(result.status).toBe(200)
  // The same seed gives the same pets in every runtime, byte for byte.
  const seeded = createSandbox({ seed: 42 })
  await seeded.ready
  expect(result.pets).toEqual(seeded.db.pets.all().slice(0, 5))
  expect([...container.querySelectorAll('li')].map((li) => li.textContent)).toEqual(
    result.pets.map((pet) => pet.name),
  )
})

test('shows the 429 of the rate-limited scenario with its Retry-After', async () => {
  server.sandbox.useScenario('rate-limited') // until the next reset
  const container = document.createElement('div')
  const result = await renderPetList(container, { apiKey: 'sandbox-free-key' })

  expect(result.status).toBe(429)
  expect(result.error).toMatchObject({ code: 'rate_limit_exceeded', status: 429 })
  expect(container.querySelector('[role=alert]').textContent).toMatch(/Retry in \d+ s\.$/)
})

test('an unknown key gets the API error body', async () => {
  const container = document.createElement('div')
  const result = await renderPetList(container, { apiKey: 'not-a-key' })

  expect(result.status).toBe(401)
  expect(result.error).toEqual({
    code: 'invalid_api_key',
    message: expect.any(String),
    status: 401,
  })
  expect(container.textContent).toBe(result.error.message)
})

test('XMLHttpRequest (axios and older clients) is answered too', async () => {
  const xhr = new XMLHttpRequest()
  xhr.open('GET', 'https://api.example.test/v1/pets/1')
  xhr.setRequestHeader('Authorization', 'Bearer sandbox-free-key')
  const loaded = new Promise((resolve) => xhr.addEventListener('loadend', resolve))
  xhr.send()
  await loaded

  expect(xhr.status).toBe(200)
  expect(JSON.parse(xhr.responseText)).toMatchObject({ id: 1 })
  expect(xhr.getResponseHeader('sunset')).toMatch(/2030/)
})
