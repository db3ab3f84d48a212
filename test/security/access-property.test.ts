import type { AddressInfo } from 'node:net'
import type { Server } from 'node:http'
import fc from 'fast-check'
import { afterAll, beforeAll, expect, test } from 'vitest'
import { createSandboxApp, listenSandboxApp } from 'petstore-sandbox/express'
import { PROPERTY_SEED } from '../hostile/arbitraries.js'
import { send } from './http.js'

// The rules of docs/security.md as properties over random Origin and Host values and
// random spellings of the control paths: whatever a page or a rebinding name sends, the
// control API never answers it with a 2xx, and nothing changes.

let server: Server
let port: number
const app = createSandboxApp({ seed: 42, count: 5 })
beforeAll(async () => {
  server = await listenSandboxApp(app, { port: 0, host: '127.0.0.1' })
  port = (server.address() as AddressInfo).port
})
afterAll(
  () =>
    new Promise<void>((resolve) => {
      server.close(() => resolve())
      server.closeAllConnections()
    }),
)

/** The test's own reading of "names this machine", independent of the server's code. */
function namesMachine(hostname: string) {
  const name = hostname.toLowerCase().replace(/\.$/, '')
  return (
    name === 'localhost' ||
    name.endsWith('.localhost') ||
    /^127\./.test(name) ||
    name === '[::1]' ||
    name.startsWith('[::ffff:7f')
  )
}

function hostnameOf(host: string) {
  try {
    return new URL(`http://${host}/`).hostname
  } catch {
    return undefined
  }
}

const port_ = fc.option(fc.integer({ min: 1, max: 65_535 }), { nil: undefined })
const withPort = (host: string, p: number | undefined) =>
  p === undefined ? host : `${host}:${p}`

/** Names of other machines: random domains, look-alikes of loopback, addresses. */
const foreignHost = fc.oneof(
  fc.domain(),
  fc.domain().map((domain) => `localhost.${domain}`),
  fc.domain().map((domain) => `127.0.0.1.${domain}`),
  fc.ipV4().filter((ip) => !ip.startsWith('127.')),
  fc
    .ipV6()
    .filter((ip) => !/^(?:0*:)*:?0*1$/.test(ip) && !/ffff/i.test(ip))
    .map((ip) => `[${ip}]`),
  fc.constantFrom('0.0.0.0', 'localhost.localdomain', 'local', 'xn--localhost-', 'lo'),
)

/** Origins a browser could send from a page that is not the machine's own. */
const foreignOrigin = fc.oneof(
  fc
    .tuple(fc.constantFrom('http', 'https'), foreignHost, port_)
    .filter(([, host]) => !namesMachine(hostnameOf(host) ?? ''))
    .map(([scheme, host, p]) => `${scheme}://${withPort(host, p)}`),
  fc.constantFrom(
    'null',
    'file://',
    'http://localhost@evil.example',
    'chrome-extension://abcdef',
    'ws://localhost',
    'http://localhost:5173/path',
  ),
  fc
    .string({ minLength: 1, maxLength: 40 })
    .filter((text) => /^[\x21-\x7e]+$/.test(text)),
)

/** Spellings of control paths a router might read as the control API. */
const controlPath = fc.constantFrom(
  '/__sandbox',
  '/__sandbox/',
  '/__sandbox/reset',
  '/__sandbox/scenario',
  '/__sandbox/clock',
  '/__sandbox/requests',
  '/__sandbox/requests?limit=1',
  '//__sandbox/reset',
  '/__SANDBOX/reset',
  '/__sandbox/./reset',
  '/v1/../__sandbox/reset',
  '/__sandbox/reset?token=x',
)

const body = fc.oneof(
  fc.constant(undefined),
  fc.constant('{"name":"missing-pet"}'),
  fc.constant('{"advanceSeconds":86400}'),
  fc.string({ maxLength: 30 }),
)

const contentType = fc.constantFrom(
  'application/json',
  'text/plain',
  'application/x-www-form-urlencoded',
  'multipart/form-data; boundary=x',
)

async function snapshot() {
  const reply = await send(port, 'GET', '/__sandbox')
  const state = JSON.parse(reply.body) as {
    scenario: unknown
    counts: unknown
    clock: { now: string }
  }
  return { scenario: state.scenario, counts: state.counts }
}

test('no request from a foreign Origin gets a 2xx from the control API, or changes it', async () => {
  const before = await snapshot()
  await fc.assert(
    fc.asyncProperty(
      foreignOrigin,
      fc.constantFrom('GET', 'POST', 'PUT', 'DELETE', 'OPTIONS'),
      controlPath,
      body,
      contentType,
      async (origin, method, path, payload, type) => {
        const reply = await send(
          port,
          method,
          path,
          {
            origin,
            'content-type': type,
            'access-control-request-method': 'PUT',
            'access-control-request-private-network': 'true',
          },
          payload,
        )
        const label = `${method} ${path} Origin: ${origin} -> ${reply.status} ${reply.body.slice(0, 200)}`
        expect(reply.status, label).toBeGreaterThanOrEqual(400)
        expect(
          Object.keys(reply.headers).filter((name) =>
            name.startsWith('access-control-allow'),
          ),
          label,
        ).toEqual([])
      },
    ),
    { seed: PROPERTY_SEED, numRuns: 150 },
  )
  expect(await snapshot()).toEqual(before)
})

test('no request with a Host of another machine gets a 2xx, on any path', async () => {
  const before = await snapshot()
  await fc.assert(
    fc.asyncProperty(
      fc.oneof(
        fc.tuple(foreignHost, port_).map(([host, p]) => withPort(host, p)),
        fc
          .string({ minLength: 1, maxLength: 40 })
          .filter((text) => /^[\x21-\x7e]+$/.test(text)),
      ),
      fc.oneof(
        controlPath,
        fc.constantFrom('/', '/v1/pets', '/v1/pets/1', '/openapi.json', '/demo/', '/x'),
      ),
      fc.constantFrom('GET', 'POST', 'OPTIONS'),
      async (host, path, method) => {
        const hostname = hostnameOf(host)
        fc.pre(hostname === undefined || !namesMachine(hostname))
        const reply = await send(
          port,
          method,
          path,
          {
            host,
            authorization: 'Bearer sandbox-enterprise-key',
            'content-type': 'application/json',
            'access-control-request-method': 'GET',
          },
          method === 'POST' ? '{"name":"Rex","categoryId":1}' : undefined,
        )
        const label = `${method} ${path} Host: ${host} -> ${reply.status} ${reply.body.slice(0, 200)}`
        expect([400, 403], label).toContain(reply.status)
        expect(JSON.parse(reply.body).code, label).toMatch(
          /^(?:forbidden_host|invalid_host|invalid_path)$/,
        )
      },
    ),
    { seed: PROPERTY_SEED, numRuns: 150 },
  )
  expect(await snapshot()).toEqual(before)
})
