import { expect, test } from 'vitest'
import { createSandbox } from 'petstore-sandbox'
import { ApiError, createPetsApi } from '../src/pets-api.js'
import { server } from './setup.js'

// The same checks in every environment: the seeded pets, a 429 and an error body.
export function sharedTests() {
  test('lists the seeded pets with the demo key', async () => {
    const pets = await createPetsApi('sandbox-free-key').listPets(5)
    const seeded = createSandbox({ seed: 42 })
    await seeded.ready
    expect(pets).toEqual(seeded.db.pets.all().slice(0, 5))
  })

  test('a 429 in the rate-limited scenario carries Retry-After', async () => {
    server.sandbox.useScenario('rate-limited')
    const error = await createPetsApi('sandbox-free-key')
      .listPets()
      .catch((e: unknown) => e)
    expect(error).toBeInstanceOf(ApiError)
    expect(error).toMatchObject({ status: 429, code: 'rate_limit_exceeded' })
    expect((error as ApiError).retryAfter).toBeGreaterThan(0)
  })

  test('an invalid pet gets 400 validation_failed naming the field', async () => {
    const error = await createPetsApi('sandbox-free-key')
      .createPet({ name: '', categoryId: 1 })
      .catch((e: unknown) => e)
    expect(error).toMatchObject({ status: 400, code: 'validation_failed' })
    expect((error as ApiError).message).toMatch(/name/)
  })
}
