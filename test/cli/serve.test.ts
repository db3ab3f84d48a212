import { createServer, type Server } from 'node:net'
import type { AddressInfo } from 'node:net'
import { afterAll, afterEach, expect, test } from 'vitest'
import {
  events,
  FREE,
  killAll,
  removeCliBuild,
  runCli,
  startServer,
} from './cli-process.js'
import { rawRequest } from '../hostile/raw-http.js'

afterEach(killAll)
afterAll(removeCliBuild)

test('the banner shows the URL, the demo keys with plans, the scenario and a curl that works', async () => {
  const cli = await runCli(['--port', '0', '--scenario', 'missing-pet'])
  const line = await cli.line(/^ {4}curl /)
  const banner = cli.stdout()
  const api = /API +(http:\/\/127\.0\.0\.1:\d+\/v1)/.exec(banner)?.[1] as string
  expect(api).toBeDefined()
  expect(banner).toMatch(/sandbox-free-key +free +60\/min, 1,000\/day/)
  expect(banner).toMatch(/sandbox-pro-key +pro +300\/min, 10,000\/day/)
  expect(banner).toMatch(/sandbox-business-key +business +1,000\/min, 100,000\/day/)
  expect(banner).toMatch(/sandbox-enterprise-key +enterprise/)
  expect(banner).toMatch(/sandbox-expired-key +free +always 401 expired_api_key/)
  expect(banner).toMatch(/Scenario +missing-pet: /)
  // The curl line, run as fetch.
  const [, key, url] = /Bearer ([^']+)' '([^']+)'/.exec(line) as RegExpExecArray
  const response = await fetch(url as string, {
    headers: { authorization: `Bearer ${key}` },
  })
  expect(response.status).toBe(200)
  expect(await response.json()).toHaveLength(3)
  expect(url?.startsWith(api)).toBe(true)
})

test('one log line per request: method, path, status, ms, key, scenario; deprecated calls flagged', async () => {
  const cli = await runCli(['--port', '0'])
  const api = /API +(\S+)/.exec(await cli.line(/API +http/))?.[1] as string
  await fetch(`${api}/pets?limit=2`, { headers: FREE })
  await fetch(`${api}/pets/7`, { headers: FREE })
  await fetch(`${api}/pets`)
  const first = await cli.line(/GET \/v1\/pets\?limit=2/)
  expect(first).toMatch(
    /^\d\d:\d\d:\d\d #\d+ GET \/v1\/pets\?limit=2 200 [\d.]+ ms sandbox-free-key \(free\) \[default\]$/,
  )
  // The id in the line is the answer's X-Sandbox-Request-Id, and finds the entry.
  const id = /#(\d+) /.exec(first)?.[1]
  const entry = await fetch(`${api.replace(/\/v1$/, '')}/__sandbox/requests/${id}`)
  expect(await entry.json()).toMatchObject({ id: Number(id), path: '/v1/pets?limit=2' })
  expect(await cli.line(/GET \/v1\/pets\/7/)).toMatch(
    /200 .*⚠ deprecated endpoint: .*5 December 2030.*GET \/v1\/pets/,
  )
  expect(await cli.line(/GET \/v1\/pets 401/)).toMatch(
    /401 missing_api_key [\d.]+ ms no valid key \[default\]$/,
  )
})

test('a dropped request is a closed connection and a "dropped" log line (flaky-network)', async () => {
  const cli = await runCli(['--port', '0', '--scenario', 'flaky-network'])
  const api = /API +(\S+)/.exec(await cli.line(/API +http/))?.[1] as string
  // Seed 42's default session: the 1st request is answered, the 2nd dropped.
  expect((await fetch(`${api}/pets?limit=1`, { headers: FREE })).status).toBe(200)
  const dropped = await fetch(`${api}/pets?limit=2`, { headers: FREE }).then(
    (response) => response.status,
    (error: Error) => error.name,
  )
  expect(dropped).toBe('TypeError')
  expect(await cli.line(/GET \/v1\/pets\?limit=2/)).toMatch(
    /^\d\d:\d\d:\d\d #\d+ GET \/v1\/pets\?limit=2 dropped \(no answer\) [\d.]+ ms sandbox-free-key \(free\) \[flaky-network\]$/,
  )
})

test('requests sent while a 429 asked to wait are pointed out (JSON log too)', async () => {
  const { cli, api } = await startServer(['--scenario', 'rate-limited'])
  const first = await fetch(`${api}/pets`, { headers: FREE })
  expect(first.status).toBe(429)
  expect(Number(first.headers.get('retry-after'))).toBeGreaterThan(0)
  await fetch(`${api}/pets`, { headers: FREE })
  await cli.line(/"ignoredRetryAfter":true/)
  const requests = events(cli, 'request')
  expect(requests).toHaveLength(2)
  expect(requests[0]).toMatchObject({
    method: 'GET',
    path: '/v1/pets',
    status: 429,
    key: 'sandbox-free-key',
    scenario: 'rate-limited',
    code: 'rate_limit_exceeded',
  })
  expect(requests[0]?.ignoredRetryAfter).toBeUndefined()
  expect(requests[1]).toMatchObject({ status: 429, ignoredRetryAfter: true })
})

test('nothing of an Authorization value that is not a demo key reaches the log', async () => {
  const secret = 'sk_live_51HxSECRETab0123456789'
  const { cli, api } = await startServer()
  for (const authorization of [
    secret,
    `Token ${secret}`,
    `Bearer ${secret.slice(0, 12)} ${secret.slice(12)}`,
    `Bearer ${secret}`,
  ]) {
    const reply = await fetch(`${api}/pets?limit=1`, { headers: { authorization } })
    expect(reply.status).toBe(401)
  }
  await fetch(`${api}/pets?limit=2`, { headers: FREE })
  await cli.line(/"path":"\/v1\/pets\?limit=2"/)
  const requests = events(cli, 'request')
  expect(requests.map((entry) => entry.code)).toEqual([
    'malformed_authorization',
    'malformed_authorization',
    'malformed_authorization',
    'invalid_api_key',
    undefined,
  ])
  expect(cli.stdout()).not.toMatch(/sk_live|SECRET/)
  expect(cli.stderr()).not.toMatch(/sk_live|SECRET/)
})

test('--quiet prints the URL only', async () => {
  const cli = await runCli(['--port', '0', '--quiet'])
  const line = await cli.line(/listening on/)
  const api = /(http:\S+)/.exec(line)?.[1] as string
  expect((await fetch(`${api}/pets`, { headers: FREE })).status).toBe(200)
  expect((await fetch(`${api}/pets`, { headers: FREE })).status).toBe(200)
  expect(cli.stdout().trim().split('\n')).toEqual([line])
})

test('--seed and --count shape the data; the control endpoints are served', async () => {
  const { api, origin } = await startServer(['--seed', '7', '--count', '5'])
  const pets = (await (
    await fetch(`${api}/pets?limit=100`, { headers: FREE })
  ).json()) as unknown[]
  expect(pets).toHaveLength(5)
  const state = (await (await fetch(`${origin}/__sandbox`)).json()) as {
    seed: number
    count: number
  }
  expect(state).toMatchObject({ seed: 7, count: 5 })
})

test('TRACE without a key is 405 with Allow, before authentication (it was 401)', async () => {
  const { origin } = await startServer()
  const port = Number(new URL(origin).port)
  const reply = await rawRequest(port, [
    `TRACE /v1/pets HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nConnection: close\r\n\r\n`,
  ])
  expect(reply.status, reply.body).toBe(405)
  expect(reply.headers.allow).toBe('GET, HEAD, POST')
  expect(JSON.parse(reply.body)).toMatchObject({
    code: 'method_not_allowed',
    status: 405,
  })
})

test('--latency delays every /v1 response', async () => {
  const { api } = await startServer(['--latency', '150'])
  const started = performance.now()
  await fetch(`${api}/pets`, { headers: FREE })
  expect(performance.now() - started).toBeGreaterThanOrEqual(140)
})

test('a busy port is one clear line and a non-zero exit', async () => {
  const blocker: Server = createServer()
  await new Promise<void>((resolve) => blocker.listen(0, '127.0.0.1', resolve))
  const { port } = blocker.address() as AddressInfo
  try {
    const cli = await runCli(['--port', String(port)])
    const { code } = await cli.exited
    expect(code).toBe(1)
    const lines = cli.stderr().trimEnd().split('\n')
    expect(lines).toHaveLength(1)
    expect(lines[0]).toMatch(
      new RegExp(
        `^petstore-sandbox: port ${port} on 127\\.0\\.0\\.1 is already in use.*--port ${port + 1}`,
      ),
    )
    expect(cli.stdout()).toBe('')
  } finally {
    await new Promise((resolve) => blocker.close(resolve))
  }
})

test('on stopping, one line per session whose client has errors or warnings', async () => {
  const { cli, api } = await startServer()
  await fetch(`${api}/pets`) // no key: a warning of the default session
  const alice = { authorization: 'Bearer sandbox-free-key.alice' }
  await fetch(`${api}/pets/1`, { headers: alice }) // deprecated: a warning of alice
  await fetch(`${api}/pets`, {
    headers: { authorization: 'Bearer sandbox-free-key.bob' },
  })
  cli.child.kill('SIGTERM')
  expect(await cli.exited).toEqual({ code: 0, signal: null })
  const warning = (code: string) => [{ code, severity: 'warning', count: 1 }]
  expect(events(cli, 'report')).toEqual([
    {
      type: 'report',
      session: 'default',
      requests: 1,
      findings: warning('authentication_failed'),
    },
    {
      type: 'report',
      session: 'alice',
      requests: 1,
      findings: warning('deprecated_endpoint'),
    },
  ])

  // The pretty log says it in one line, and where to look.
  const pretty = await runCli(['--port', '0'])
  const origin = /API +(http:\/\/\S+)\/v1/.exec(await pretty.line(/API +http/))?.[1]
  await fetch(`${origin}/v1/pets`)
  await pretty.line(/GET \/v1\/pets 401/)
  pretty.child.kill('SIGINT')
  await pretty.exited
  expect(pretty.stdout()).toContain(
    '⚠ report card, session default: 1 warning (authentication_failed: 1 request) in 1 request; see GET /__sandbox/report',
  )
})

test.each(['SIGTERM', 'SIGINT'] as const)(
  '%s closes the server cleanly, exit 0',
  async (signal) => {
    const { cli, api } = await startServer()
    // A kept-alive connection must not hold the shutdown up.
    expect((await fetch(`${api}/pets`, { headers: FREE })).status).toBe(200)
    cli.child.kill(signal)
    expect(await cli.exited).toEqual({ code: 0, signal: null })
    expect(events(cli, 'stopped')).toEqual([{ type: 'stopped', signal }])
    await expect(fetch(`${api}/pets`, { headers: FREE })).rejects.toThrow()
  },
)
