import type { JournalEntry } from 'petstore-sandbox'
import { expect } from 'vitest'

// The checks every runtime's run of test/overrides/overrides.js must pass: in tests and
// in an Express app (test/overrides/overrides.test.ts), in the standalone server with
// --handlers (test/cli/handlers.test.ts).

export const FREE = { authorization: 'Bearer sandbox-free-key' }

/** The same checks against a runtime, given its base address and its journal. */
export function overridesAreTheUsers(
  start: () => Promise<{
    origin: string
    journal: () => Promise<JournalEntry[]>
    stop: () => Promise<unknown>
  }>,
) {
  return async () => {
    const { origin, journal, stop } = await start()
    try {
      const pet = await fetch(`${origin}/v1/pets/4242`, { headers: FREE })
      expect(pet.status).toBe(200)
      expect(await pet.json()).toEqual({
        id: 4242,
        name: 'Overridden',
        categoryId: 1,
        status: 'available',
      })
      expect(pet.headers.get('x-override')).toBe('pet')
      // The user's answer gets no headers it did not set and is not counted.
      expect(pet.headers.get('x-ratelimit-remaining')).toBeNull()
      expect(pet.headers.get('deprecation')).toBeNull()

      const teapot = await fetch(`${origin}/v1/pets`, {
        method: 'POST',
        headers: { ...FREE, 'content-type': 'application/json' },
        body: JSON.stringify({ name: 'Teapot', categoryId: 1 }),
      })
      expect(teapot.status).toBe(418)

      // The override read this body too, and fell through: the sandbox still has it.
      const rex = await fetch(`${origin}/v1/pets`, {
        method: 'POST',
        headers: { ...FREE, 'content-type': 'application/json' },
        body: JSON.stringify({ name: 'Rex', categoryId: 2 }),
      })
      expect(rex.status).toBe(201)
      expect(await rex.json()).toMatchObject({ name: 'Rex', categoryId: 2 })
      // The first request the sandbox counted.
      expect(rex.headers.get('x-ratelimit-remaining')).toBe('59')

      expect((await fetch(`${origin}/health`)).status).toBe(200)

      const entries = (await journal()).map(({ method, path, status, override }) => ({
        method,
        path,
        status,
        override: override ?? false,
      }))
      expect(entries).toEqual(
        expect.arrayContaining([
          { method: 'GET', path: '/v1/pets/4242', status: 200, override: true },
          { method: 'POST', path: '/v1/pets', status: 418, override: true },
          { method: 'POST', path: '/v1/pets', status: 201, override: false },
        ]),
      )
    } finally {
      await stop()
    }
  }
}

export const readJournal = async (origin: string) =>
  (
    (await (await fetch(`${origin}/__sandbox/requests`)).json()) as {
      requests: JournalEntry[]
    }
  ).requests
