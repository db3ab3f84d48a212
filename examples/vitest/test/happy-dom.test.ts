// @vitest-environment happy-dom
import { describe, expect, test } from 'vitest'
import { createPetsApi } from '../src/pets-api.js'
import { sharedTests } from './shared.js'

describe('happy-dom environment', () => {
  test('renders the pets into the DOM', async () => {
    const pets = await createPetsApi('sandbox-free-key').listPets(3)
    document.body.innerHTML = `<ul>${pets.map((pet) => `<li>${pet.name}</li>`).join('')}</ul>`
    expect(document.querySelectorAll('li')).toHaveLength(3)
    expect(document.querySelector('li')?.textContent).toBe(pets[0]?.name)
  })
  sharedTests()
})
