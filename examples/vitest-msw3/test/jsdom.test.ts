// @vitest-environment jsdom
import { describe, expect, test } from 'vitest'

// Under msw 3, jsdom's fetch reaches the sandbox; its XMLHttpRequest does not (upstream,
// docs/compatibility.md), so this example uses fetch.
describe('jsdom environment', () => {
  test('renders the seeded pets into the DOM', async () => {
    const response = await fetch('https://api.example.test/v1/pets?limit=3', {
      headers: { Authorization: 'Bearer sandbox-free-key' },
    })
    const pets = (await response.json()) as Array<{ name: string }>
    document.body.innerHTML = `<ul>${pets.map((pet) => `<li>${pet.name}</li>`).join('')}</ul>`
    expect(document.querySelectorAll('li')).toHaveLength(3)
    expect(document.querySelector('li')?.textContent).toBe(pets[0]?.name)
  })
})
