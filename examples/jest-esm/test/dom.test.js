/**
 * @jest-environment jest-fixed-jsdom
 */
import { setupSandboxServer } from 'petstore-sandbox/node'

const server = setupSandboxServer({ seed: 42 })
beforeAll(() => server.listen())
afterEach(() => server.resetHandlers())
afterAll(() => server.close())

test('renders the seeded pets into jsdom', async () => {
  const response = await fetch('https://api.example.test/v1/pets?limit=3', {
    headers: { Authorization: 'Bearer sandbox-free-key' },
  })
  const pets = await response.json()
  document.body.innerHTML = `<ul>${pets.map((pet) => `<li>${pet.name}</li>`).join('')}</ul>`
  expect(document.querySelectorAll('li')).toHaveLength(3)
})
