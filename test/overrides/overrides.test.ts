import { http } from 'msw'
import { setupSandboxServer } from 'petstore-sandbox/node'
import { describe, expect, test } from 'vitest'
import { startApp } from '../express/start-app.js'
import { failOnUnhandledRequest } from '../msw-options.js'
import { FREE, overridesAreTheUsers, readJournal } from './overrides-are-the-users.js'
import overrides from './overrides.js'

// The user's own handlers in process; the standalone server's --handlers is in
// test/cli/handlers.test.ts.

describe('one override file serves every runtime (the standalone server: test/cli/handlers.test.ts)', () => {
  test(
    'in tests (setupSandboxServer)',
    overridesAreTheUsers(async () => {
      const server = setupSandboxServer({ handlers: overrides })
      server.listen(failOnUnhandledRequest)
      const origin = 'http://sandbox.test'
      return {
        origin,
        journal: async () => server.sandbox.journal.recent(),
        stop: async () => server.close(),
      }
    }),
  )

  test(
    'in an Express app (createSandboxApp)',
    overridesAreTheUsers(async () => {
      const app = await startApp({ handlers: overrides })
      return {
        origin: app.origin,
        journal: () => readJournal(app.origin),
        stop: app.close,
      }
    }),
  )
})

test("a handler of yours that throws is a 500 saying it was yours, journalled as an override's, its error handed to onError", async () => {
  const errors: unknown[] = []
  const app = await startApp({
    handlers: [
      http.get('*/v1/pets/:id', () => {
        throw new Error('boom in my handler')
      }),
    ],
    onError: (error) => void errors.push(error),
  })
  try {
    const thrown = await fetch(`${app.origin}/v1/pets/7`, { headers: FREE })
    expect(thrown.status).toBe(500)
    expect(await thrown.json()).toEqual({
      code: 'internal_error',
      status: 500,
      message:
        "One of your own msw handlers (the handlers option, --handlers) threw on GET /v1/pets/7, so it has no answer: fix that handler, or have it return nothing to let the sandbox answer. Its error is the server's to report: the CLI prints it, createSandboxApp hands it to its onError, createSandboxMiddleware to next(error).",
    })
    expect(errors).toHaveLength(1)
    expect((errors[0] as Error).name).toBe('HandlerThrewError')
    expect(((errors[0] as Error).cause as Error).message).toBe('boom in my handler')
    // The sandbox itself still answers what the handler does not take.
    expect((await fetch(`${app.origin}/v1/pets`, { headers: FREE })).status).toBe(200)
    const entries = (await readJournal(app.origin)).map(({ path, status, override }) => ({
      path,
      status,
      override: override ?? false,
    }))
    // Newest first.
    expect(entries).toEqual([
      { path: '/v1/pets', status: 200, override: false },
      { path: '/v1/pets/7', status: 500, override: true },
    ])
  } finally {
    await app.close()
  }
})
