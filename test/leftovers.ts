import { afterAll, vi } from 'vitest'

// The fast tier's files share a worker's modules and globals (vitest.config.ts): what a
// file leaves patched would reach the files after it and fail there, hiding its cause.
// This setup file runs before each of them: after the file it puts back fake timers and
// fails the file that left an msw server listening (its fetch still intercepted).

const FIRST_FETCH = Symbol.for('petstore-sandbox.tests.first-fetch')
const slot = globalThis as { [FIRST_FETCH]?: typeof fetch }
slot[FIRST_FETCH] ??= globalThis.fetch
const firstFetch = slot[FIRST_FETCH]

afterAll(() => {
  vi.useRealTimers()
  if (globalThis.fetch === firstFetch) return
  globalThis.fetch = firstFetch
  throw new Error(
    'This file left an msw server listening: globalThis.fetch was still intercepted after its last test. Close every server it listens with (afterAll(() => server.close())), so the next file in this worker gets the real fetch.',
  )
})
