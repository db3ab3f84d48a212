import { afterAll, afterEach, beforeAll, expect, test } from 'vitest'
import {
  assertWellBehaved,
  problems,
  SandboxError,
  setupSandboxServer,
} from 'petstore-sandbox/node'
import { failOnUnhandledRequest } from '../msw-options.js'

// The report card in code: sandbox.report(), sandbox.session(id).report(), and the
// helpers a test fails a misbehaving client with. Over HTTP: test/contract/report-suite.ts.
const server = setupSandboxServer({
  seed: 42,
  clock: { now: '2027-01-01T00:00:30Z', frozen: true },
})
const { sandbox } = server
beforeAll(() => server.listen(failOnUnhandledRequest))
afterEach(() => server.resetHandlers())
afterAll(() => server.close())

const list = (key = 'sandbox-free-key') =>
  fetch('https://api.example.test/v1/pets?limit=1', {
    headers: { authorization: `Bearer ${key}` },
  })

test('sandbox.report() grades the default session, session(id).report() another', async () => {
  sandbox.useScenario('rate-limit-countdown')
  for (let index = 0; index < 6; index++) await list()
  const early = await list()
  expect(early.status).toBe(429)
  await list('sandbox-free-key.report-b')

  const report = sandbox.report()
  expect(report).toMatchObject({
    session: 'default',
    since: '2027-01-01T00:00:30.000Z',
    requests: 7,
    clockFrozen: true,
  })
  expect(problems(report)).toEqual([
    expect.objectContaining({
      code: 'retry_before_retry_after',
      severity: 'error',
      count: 1,
      requestIds: [Number(early.headers.get('x-sandbox-request-id'))],
    }),
  ])
  expect(sandbox.session('report-b').report()).toMatchObject({
    session: 'report-b',
    requests: 1,
    findings: [],
  })
})

test('assertWellBehaved() passes a good client and names what a bad one must fix', async () => {
  await list()
  expect(() => assertWellBehaved(sandbox.report())).not.toThrow()
  await fetch('https://api.example.test/v1/pets/1', {
    headers: { authorization: 'Bearer sandbox-free-key' },
  })
  let thrown: unknown
  try {
    assertWellBehaved(sandbox.report())
  } catch (error) {
    thrown = error
  }
  expect(thrown).toBeInstanceOf(SandboxError)
  expect((thrown as SandboxError).message).toMatch(
    /^Failed to pass the report card of the session "default": 1 finding\(s\) above info\.\n- warning deprecated_endpoint: 1 request\(s\), the latest \d+\. .+ Fix: Use GET \/v1\/pets with the status filter/,
  )
})

test('resetHandlers() resets the sandbox, and its report with it', async () => {
  await list('sandbox-expired-key')
  expect(sandbox.report().findings).toMatchObject([
    { code: 'authentication_failed', severity: 'info' },
  ])
  await server.resetHandlers()
  expect(sandbox.report()).toMatchObject({ requests: 0, findings: [] })
})
