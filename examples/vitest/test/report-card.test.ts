import { beforeEach, expect, test } from 'vitest'
import { problems } from 'petstore-sandbox'
import { createPetsApi } from '../src/pets-api.js'
import { retryAtOnce, retryPolitely } from '../src/retry.js'
import { server } from './setup.js'

// The report card grades the client: no finding above `info` is how a test fails a
// client that misbehaves. Five requests a minute (rate-limit-countdown), then a sixth.
// The clock stands still, so no minute ends halfway through a test (setup.ts resets it).
beforeEach(() => server.sandbox.clock.freeze())

test('a naive client retries a 429 at once: retry_before_retry_after', async () => {
  server.sandbox.useScenario('rate-limit-countdown')
  const api = createPetsApi('sandbox-free-key')
  for (let index = 0; index < 5; index++) await api.listPets(1)
  await expect(retryAtOnce(() => api.listPets(1))).rejects.toMatchObject({ status: 429 })

  const found = problems(server.sandbox.report()).map((finding) => finding.code)
  expect(found).toContain('retry_before_retry_after')
})

test('the fixed client honours Retry-After: nothing above info', async () => {
  server.sandbox.useScenario('rate-limit-countdown')
  const api = createPetsApi('sandbox-free-key')
  // It waits by moving the sandbox clock, so the test does not sleep for a minute.
  const wait = (seconds: number) => server.sandbox.clock.advance(seconds)
  for (let index = 0; index < 5; index++) await api.listPets(1)
  await retryPolitely(() => api.listPets(1), { wait })

  const report = server.sandbox.report()
  expect(problems(report)).toEqual([])
  expect(report.findings.map((finding) => finding.code)).toEqual(['rate_limit_exceeded'])
})
