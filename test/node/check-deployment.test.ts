import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterEach, expect, test } from 'vitest'
import {
  checkDeployment,
  http,
  HttpResponse,
  type CheckResult,
} from 'petstore-sandbox/node'
import { startApp } from '../express/start-app.js'

// checkDeployment against servers it did not write: the standalone sandbox, a sandbox
// whose user handlers break rules on purpose, a server that hangs and one that answers
// HTML. Every server listens on 127.0.0.1, port 0, and is stopped after its test.

const stops: (() => Promise<void>)[] = []
afterEach(async () => {
  await Promise.all(stops.splice(0).map((stop) => stop()))
})

const SESSION_KEY = 'sandbox-enterprise-key.check'
const notPassed = (results: CheckResult[]) =>
  results.filter((result) => result.status !== 'passed').map((result) => result.name)

/** A plain Node server answering every request with `answer` (or never). */
async function rawServer(answer?: (res: import('node:http').ServerResponse) => void) {
  const server: Server = createServer((_req, res) => answer?.(res))
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as AddressInfo
  stops.push(
    () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections()
        server.close(() => resolve())
      }),
  )
  return `http://127.0.0.1:${port}/v1`
}

test('against the standalone sandbox every check passes, and its report card of the run has no error', async () => {
  const app = await startApp({ seed: 42 })
  stops.push(app.close)
  const plans: unknown[] = []
  const report = await checkDeployment({
    baseUrl: `${app.origin}/v1`,
    key: SESSION_KEY,
    writes: true,
    timeoutMs: 10_000,
    onPlan: (plan) => plans.push(plan),
  })
  expect(notPassed(report.results)).toEqual([])
  expect(report.results.length).toBe(22)
  expect(report.ok).toBe(true)
  // Both kinds of check are there.
  expect(new Set(report.results.map((result) => result.holds))).toEqual(
    new Set(['document', 'decision']),
  )
  expect(plans).toEqual([
    expect.objectContaining({
      requests: 16,
      limit: expect.any(Number),
      remaining: expect.any(Number),
    }),
  ])
  expect(report.summary.requests).toBe(16)
  const card = await fetch(`${app.origin}/__sandbox/report`, {
    headers: { authorization: `Bearer ${SESSION_KEY}` },
  }).then((response) => response.json())
  const findings = card.findings as { code: string; severity: string }[]
  expect(findings.filter((finding) => finding.severity === 'error')).toEqual([])
  // Warnings only for what it does on purpose: invalid values, the deprecated endpoint.
  for (const finding of findings.filter((each) => each.severity === 'warning'))
    expect(['invalid_request', 'deprecated_endpoint', 'authentication_failed']).toContain(
      finding.code,
    )
})

test('a sandbox whose own handlers break three rules fails exactly those checks', async () => {
  const app = await startApp({
    seed: 42,
    handlers: [
      // limit ignored: two pets for limit=1.
      http.get('*/v1/pets', ({ request }) =>
        new URL(request.url).searchParams.get('limit') === '1' &&
        request.headers.get('authorization') === 'Bearer sandbox-enterprise-key'
          ? HttpResponse.json(
              [
                { id: 1, name: 'A', categoryId: 1 },
                { id: 2, name: 'B', categoryId: 1 },
              ],
              {
                headers: {
                  'x-ratelimit-limit': '10',
                  'x-ratelimit-remaining': '9',
                  'x-ratelimit-reset': '2000000000',
                },
              },
            )
          : undefined,
      ),
      // A missing pet's Error body says another status.
      http.get('*/v1/pets/9007199254740991', () =>
        HttpResponse.json(
          { code: 'not_found', message: 'No pet.', status: 400 },
          {
            status: 404,
            headers: {
              'x-ratelimit-limit': '10',
              'x-ratelimit-remaining': '9',
              'x-ratelimit-reset': '2000000000',
            },
          },
        ),
      ),
      // The sandbox's decision: the code of a wrong key, here another one.
      http.get('*/v1/pets', ({ request }) =>
        request.headers.get('authorization') ===
        'Bearer petstore-sandbox-check-unknown-key'
          ? HttpResponse.json(
              { code: 'unauthorized', message: 'No.', status: 401 },
              {
                status: 401,
                headers: {
                  'x-ratelimit-limit': '10',
                  'x-ratelimit-remaining': '9',
                  'x-ratelimit-reset': '2000000000',
                },
              },
            )
          : undefined,
      ),
    ],
  })
  stops.push(app.close)
  const report = await checkDeployment({
    baseUrl: `${app.origin}/v1`,
    key: 'sandbox-enterprise-key',
    timeoutMs: 10_000,
  })
  const failures = report.results.filter((result) => result.status === 'failed')
  expect(failures.map((result) => [result.name, result.holds])).toEqual([
    ['listPets returns at most `limit` pets (limit=1)', 'document'],
    ['getPet answers 404 with an Error body for a missing id', 'document'],
    ['listPets with an unknown key says code invalid_api_key', 'decision'],
    [
      'every error answer has an Error body {code, message, status} whose status is the HTTP status',
      'document',
    ],
  ])
  expect(report.summary).toMatchObject({
    failed: 4,
    brokenDocument: 3,
    drift: 1,
    skipped: 0,
  })
  const [limit] = failures
  expect(limit?.seen).toContain('2 pets')
  expect(limit?.repeat).toBe(
    `curl -i -H "Authorization: Bearer $PETSTORE_SANDBOX_CHECK_KEY" '${app.origin}/v1/pets?limit=1'`,
  )
  expect(JSON.stringify(report)).not.toContain('sandbox-enterprise-key')
})

test('a server that never answers: failure lines within the time budget, no throw', async () => {
  const baseUrl = await rawServer()
  const started = Date.now()
  const report = await checkDeployment({ baseUrl, key: 'secret-key', timeoutMs: 1500 })
  expect(Date.now() - started).toBeLessThan(3000)
  expect(report.ok).toBe(false)
  expect(report.results[0]).toMatchObject({
    status: 'failed',
    seen: expect.stringContaining('no answer within'),
  })
  // One request only: the rest say why they were not sent.
  expect(report.summary.requests).toBe(1)
  expect(report.results.every((result) => result.status !== 'passed')).toBe(true)
})

test('a server that answers HTML, one that redirects and one that is not there: clear failures', async () => {
  const html = await rawServer((res) => {
    res.writeHead(200, { 'content-type': 'text/html' })
    res.end('<!doctype html><title>Login</title>')
  })
  const htmlReport = await checkDeployment({
    baseUrl: html,
    key: 'secret-key',
    timeoutMs: 5000,
  })
  expect(htmlReport.ok).toBe(false)
  expect(htmlReport.results[0]?.seen).toMatch(
    /text\/html where JSON was expected: "<!doctype html>/,
  )
  const redirect = await rawServer((res) => {
    res.writeHead(301, { location: 'https://elsewhere.example/v1/pets' })
    res.end()
  })
  const redirectReport = await checkDeployment({
    baseUrl: redirect,
    key: 'k',
    timeoutMs: 5000,
  })
  expect(redirectReport.results[0]?.seen).toMatch(
    /^a redirect \(301 to https:\/\/elsewhere\.example\/v1\/pets\)/,
  )
  // A port that was just free: nothing listens there.
  const closed = createServer()
  await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve))
  const { port } = closed.address() as AddressInfo
  await new Promise((resolve) => closed.close(resolve))
  const refused = await checkDeployment({
    baseUrl: `http://127.0.0.1:${port}/v1`,
    key: 'k',
    timeoutMs: 5000,
  })
  expect(refused.results[0]?.seen).toMatch(/connection refused/)
  expect(refused.summary.requests).toBe(1)
})

test('a server that closes connections, and one that answers 500: failure lines, no throw', async () => {
  const closing = await rawServer((res) => res.socket?.destroy())
  const closed = await checkDeployment({ baseUrl: closing, key: 'k', timeoutMs: 5000 })
  expect(closed.ok).toBe(false)
  expect(closed.results[0]?.seen).toMatch(/closed before an answer|the request failed/)
  expect(closed.summary.requests).toBe(1)
  const broken = await rawServer((res) => {
    res.writeHead(500, { 'content-type': 'application/json' })
    res.end('{"error":"boom"}')
  })
  const report = await checkDeployment({ baseUrl: broken, key: 'k', timeoutMs: 5000 })
  expect(report.results[0]).toMatchObject({
    status: 'failed',
    seen: '500, {"error":"boom"}',
  })
  expect(
    report.results.find((result) => result.name.startsWith('every error answer'))?.seen,
  ).toMatch(/^GET \/pets: not an Error body/)
  expect(report.summary.requests).toBe(12)
})

test('a server that answers 429 to the read-only checks: waits Retry-After once, stops at the second', async () => {
  const baseUrl = await rawServer((res) => {
    res.writeHead(429, { 'content-type': 'application/json', 'retry-after': '1' })
    res.end('{"code":"rate_limit_exceeded","message":"Wait.","status":429}')
  })
  const started = Date.now()
  const report = await checkDeployment({ baseUrl, key: 'k', timeoutMs: 5000 })
  expect(report.summary.requests).toBe(2)
  expect(Date.now() - started).toBeGreaterThanOrEqual(1000)
  expect(report.results[2]?.seen).toMatch(
    /^not sent: a second 429: the check stops rather than risk a ban/,
  )
})

test('--rate-limits spends a small window, checks the 429 and its Retry-After, and recovery', async () => {
  // 28 a window: the read-only checks' last keyed answer leaves 19 (at most 20), which
  // the rate-limit checks spend.
  let remaining = 28
  let blockedUntil = 0
  const baseUrl = await rawServer((res) => {
    const now = Date.now()
    const headers = {
      'content-type': 'application/json',
      'x-ratelimit-limit': '30',
      'x-ratelimit-reset': String(Math.ceil(now / 1000) + 60),
    }
    if (blockedUntil !== 0 && now >= blockedUntil) {
      blockedUntil = 0
      remaining = 28
    }
    if (remaining === 0) {
      if (blockedUntil === 0) blockedUntil = now + 1000
      res.writeHead(429, { ...headers, 'x-ratelimit-remaining': '0', 'retry-after': '1' })
      res.end(
        JSON.stringify({ code: 'rate_limit_exceeded', message: 'Wait.', status: 429 }),
      )
      return
    }
    remaining--
    res.writeHead(200, { ...headers, 'x-ratelimit-remaining': String(remaining) })
    res.end('[]')
  })
  const report = await checkDeployment({
    baseUrl,
    key: 'k',
    rateLimits: true,
    pace: 0,
    timeoutMs: 8000,
  })
  const spent = report.results.slice(-4)
  expect(spent.map((result) => [result.name, result.status])).toEqual([
    ['a spent window answers 429 with an Error body', 'passed'],
    ['the 429 carries Retry-After (seconds)', 'passed'],
    ['the 429 says code rate_limit_exceeded', 'passed'],
    ['after waiting Retry-After, the key is answered again', 'passed'],
  ])
})

test('--rate-limits spends nothing while more than 20 remain', async () => {
  const app = await startApp({ seed: 42 })
  stops.push(app.close)
  const report = await checkDeployment({
    baseUrl: `${app.origin}/v1`,
    key: 'sandbox-enterprise-key',
    rateLimits: true,
    timeoutMs: 10_000,
  })
  const spent = report.results.slice(-4)
  expect(spent.every((result) => result.status === 'skipped')).toBe(true)
  expect(spent[0]?.why).toMatch(
    /X-RateLimit-Remaining is \d+: these checks spend a window only when at most 20 remain/,
  )
  expect(report.summary.requests).toBe(13)
})

test('pacing by the headers: never more than half of a window, then waits for its reset', async () => {
  let remaining = 6
  const resetAt = Math.ceil(Date.now() / 1000) + 1
  const seen: number[] = []
  const baseUrl = await rawServer((res) => {
    if (Date.now() >= resetAt * 1000 && remaining < 6) remaining = 1000
    seen.push(remaining)
    remaining--
    res.writeHead(200, {
      'content-type': 'application/json',
      'x-ratelimit-limit': '6',
      'x-ratelimit-remaining': String(remaining),
      'x-ratelimit-reset': String(resetAt),
    })
    res.end('[]')
  })
  const report = await checkDeployment({ baseUrl, key: 'k', timeoutMs: 8000 })
  // The first answer leaves 5: with it, at most 2 (half of 5) in that window; then the
  // check waits for the reset the server named.
  expect(seen.slice(0, 2)).toEqual([6, 5])
  expect(seen[2]).toBeGreaterThan(100)
  // The list was empty: no getPet of a listed pet.
  expect(report.summary.requests).toBe(12)
})

test('a base URL without /v1 (the server root), or a key the server refuses: one failure line saying what to give, and the run stops there', async () => {
  const app = await startApp({ seed: 42 })
  stops.push(app.close)
  for (const root of [app.origin, `${app.origin}/`]) {
    const report = await checkDeployment({
      baseUrl: root,
      key: SESSION_KEY,
      timeoutMs: 10_000,
    })
    expect(report.ok).toBe(false)
    expect(report.results).toEqual([
      expect.objectContaining({
        name: "the base URL is the API's (it ends in /v1)",
        status: 'failed',
        seen: `${app.origin}/pets answers 404 and ${app.origin}/v1/pets answers 200: the API is at ${app.origin}/v1. Run the check with that base URL, e.g. petstore-sandbox check ${app.origin}/v1`,
      }),
    ])
    expect(report.summary.requests).toBe(2)
  }
  // A key the server refuses: one line, the 401 it got, what to give.
  const refused = await checkDeployment({
    baseUrl: `${app.origin}/v1`,
    key: 'no-such-key',
    timeoutMs: 10_000,
  })
  expect(refused.results).toEqual([
    expect.objectContaining({
      name: 'the key is accepted',
      status: 'failed',
      seen: expect.stringMatching(
        /^401, \{"code":"invalid_api_key".*give one with --key or PETSTORE_SANDBOX_CHECK_KEY/,
      ),
    }),
  ])
  expect(refused.summary.requests).toBe(1)
  // A base URL under which the API is not: the checks run and say what they saw.
  const elsewhere = await checkDeployment({
    baseUrl: `${app.origin}/api`,
    key: SESSION_KEY,
    timeoutMs: 10_000,
  })
  expect(elsewhere.results.length).toBeGreaterThan(1)
  expect(elsewhere.results[0]).toEqual(
    expect.objectContaining({
      name: 'listPets answers 200 with an array of Pets',
      status: 'failed',
    }),
  )
})
