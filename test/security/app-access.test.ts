import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterAll, afterEach, beforeAll, describe, expect, test } from 'vitest'
import {
  createSandboxApp,
  listenSandboxApp,
  SandboxError,
  type SandboxAppOptions,
} from 'petstore-sandbox/express'
import { codeOf, send, type Reply } from './http.js'

// Who may use the standalone server (docs/security.md), over real sockets on loopback:
// the attacks of issue 14 from a web page (another origin) and through DNS rebinding
// (another Host), and the control token of a server reachable from the network.

const FREE = { authorization: 'Bearer sandbox-free-key' }
const EVIL = 'https://evil.example'
const JSON_TYPE = { 'content-type': 'application/json' }
const CLOCK = { now: '2027-01-01T00:00:00Z', frozen: true }

/** The time sessions idle by (the idleNow option): moved to expire them. */
let idle = Date.parse(CLOCK.now)

interface Running {
  server: Server
  port: number
  app: ReturnType<typeof createSandboxApp>
  close(): Promise<void>
}

async function start(
  options: SandboxAppOptions = {},
  address = '127.0.0.1',
): Promise<Running> {
  const app = createSandboxApp({
    seed: 42,
    count: 5,
    clock: CLOCK,
    idleNow: () => idle,
    ...options,
  })
  const server = await listenSandboxApp(app, { port: 0, host: address })
  return running(app, server)
}

function running(app: ReturnType<typeof createSandboxApp>, server: Server): Running {
  return {
    app,
    server,
    port: (server.address() as AddressInfo).port,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve())
        server.closeAllConnections()
      }),
  }
}

/** What a refused request must not change: the pets, the scenario, the clock. */
async function world(at: Running) {
  const reply = await send(at.port, 'GET', '/__sandbox')
  const state = JSON.parse(reply.body) as {
    scenario: { name: string }
    counts: unknown
    clock: unknown
  }
  return { scenario: state.scenario.name, counts: state.counts, clock: state.clock }
}

const allowHeaders = (reply: Reply) =>
  Object.keys(reply.headers).filter((name) => name.startsWith('access-control-allow'))

let at: Running
beforeAll(async () => {
  at = await start({ allowedOrigins: ['https://app.example.com'] })
})
afterEach(() => at.app.sandbox.reset())
afterAll(() => at.close())

describe('a page of another site cannot use the control API: 403 forbidden_origin, nothing changed', () => {
  // The simple requests a page can send without a preflight, and the rest.
  test.each([
    ['POST', '/__sandbox/reset', 'text/plain', ''],
    ['POST', '/__sandbox/reset', 'text/plain', 'x'],
    ['POST', '/__sandbox/reset', 'application/x-www-form-urlencoded', 'a=b'],
    ['PUT', '/__sandbox/scenario', 'text/plain', '{"name":"missing-pet"}'],
    ['PUT', '/__sandbox/scenario', 'application/json', '{"name":"missing-pet"}'],
    ['POST', '/__sandbox/clock', 'text/plain', '{"advanceSeconds":86400}'],
    ['POST', '/__sandbox/clock', 'multipart/form-data; boundary=x', '--x--'],
  ])('%s %s (%s)', async (method, path, type, body) => {
    const created = await send(
      at.port,
      'POST',
      '/v1/pets',
      { ...FREE, ...JSON_TYPE },
      '{"name":"Rex","categoryId":1}',
    )
    expect(created.status).toBe(201)
    const before = await world(at)
    const reply = await send(
      at.port,
      method,
      path,
      { origin: EVIL, 'content-type': type },
      body,
    )
    expect(reply.status).toBe(403)
    expect(codeOf(reply)).toBe('forbidden_origin')
    expect(JSON.parse(reply.body).message).toContain('--cors-origin')
    expect(allowHeaders(reply)).toEqual([])
    expect(await world(at)).toEqual(before)
  })

  test.each(['/__sandbox', '/__sandbox/requests', '/__sandbox/clock', '/__sandbox/nope'])(
    'GET %s is not readable either',
    async (path) => {
      const reply = await send(at.port, 'GET', path, { origin: EVIL })
      expect(reply.status).toBe(403)
      expect(codeOf(reply)).toBe('forbidden_origin')
      expect(reply.body).not.toContain('sandbox-free-key')
      expect(allowHeaders(reply)).toEqual([])
    },
  )

  test.each([
    'null',
    'file://',
    'http://localhost.evil.example',
    'http://127.0.0.1.evil.example:4010',
    'http://evil.example#@localhost',
    'http://localhost@evil.example',
    'ws://localhost:5173',
    'http://0.0.0.0:4010',
    'http://[::2]',
    'https://app.example.com.evil.example',
    'http://app.example.com',
  ])('Origin: %s is not trusted', async (origin) => {
    const reply = await send(at.port, 'POST', '/__sandbox/reset', { origin })
    expect(reply.status).toBe(403)
    expect(codeOf(reply)).toBe('forbidden_origin')
  })

  test('its preflight is refused without any Access-Control-Allow-* header', async () => {
    for (const path of ['/__sandbox/scenario', '/__sandbox/reset', '/__sandbox']) {
      const reply = await send(at.port, 'OPTIONS', path, {
        origin: EVIL,
        'access-control-request-method': 'PUT',
        'access-control-request-headers': 'content-type',
        'access-control-request-private-network': 'true',
      })
      expect(reply.status, path).toBe(403)
      expect(codeOf(reply)).toBe('forbidden_origin')
      expect(allowHeaders(reply), path).toEqual([])
    }
  })
})

describe('the machine’s own pages and the allowed origins use it', () => {
  test.each([
    'http://localhost:5173',
    'http://localhost',
    'https://localhost:8443',
    'http://127.0.0.1:9999',
    'http://127.0.0.2:3000',
    'http://[::1]:3000',
    'http://LOCALHOST:5173',
    'http://app.localhost:3000',
    'https://app.example.com',
    'https://app.example.com:443',
  ])('Origin: %s', async (origin) => {
    const state = await send(at.port, 'GET', '/__sandbox', { origin })
    expect(state.status).toBe(200)
    expect(state.headers['access-control-allow-origin']).toBe(origin)
    const preflight = await send(at.port, 'OPTIONS', '/__sandbox/scenario', {
      origin,
      'access-control-request-method': 'PUT',
      'access-control-request-headers': 'content-type, x-sandbox-control-token',
      'access-control-request-private-network': 'true',
    })
    expect(preflight.status).toBe(204)
    expect(preflight.headers['access-control-allow-methods']).toMatch(/PUT/)
    expect(preflight.headers['access-control-allow-private-network']).toBe('true')
    const switched = await send(
      at.port,
      'PUT',
      '/__sandbox/scenario',
      { origin, ...JSON_TYPE },
      '{"name":"missing-pet"}',
    )
    expect(switched.status).toBe(200)
  })

  test("the server's own origin", async () => {
    const origin = `http://127.0.0.1:${at.port}`
    const reset = await send(at.port, 'POST', '/__sandbox/reset', { origin })
    expect(reset.status).toBe(200)
  })

  test('a request without Origin (curl, tests, servers) is served', async () => {
    expect((await send(at.port, 'POST', '/__sandbox/reset')).status).toBe(200)
  })

  test('a control request with a body that is not JSON is 415, even from a trusted page', async () => {
    for (const [method, path, body] of [
      ['POST', '/__sandbox/reset', 'x'],
      ['PUT', '/__sandbox/scenario', '{"name":"missing-pet"}'],
      ['POST', '/__sandbox/clock', '{"advanceSeconds":60}'],
    ] as const) {
      const before = await world(at)
      const reply = await send(
        at.port,
        method,
        path,
        { origin: 'http://localhost:5173', 'content-type': 'text/plain' },
        body,
      )
      expect(reply.status, path).toBe(415)
      expect(codeOf(reply)).toBe('unsupported_media_type')
      expect(await world(at)).toEqual(before)
    }
    // A bodiless reset stays as documented, whatever its Content-Type says.
    const reset = await send(at.port, 'POST', '/__sandbox/reset', {
      origin: 'http://localhost:5173',
      'content-type': 'text/plain',
    })
    expect(reset.status).toBe(200)
  })
})

describe('/v1 stays a public API', () => {
  test('any origin reads it, with Access-Control-Allow-Origin: *', async () => {
    for (const origin of [EVIL, 'null', 'http://localhost:5173']) {
      const reply = await send(at.port, 'GET', '/v1/pets?limit=1', { ...FREE, origin })
      expect(reply.status).toBe(200)
      expect(reply.headers['access-control-allow-origin']).toBe('*')
      const preflight = await send(at.port, 'OPTIONS', '/v1/pets', {
        origin,
        'access-control-request-method': 'POST',
      })
      expect(preflight.status).toBe(204)
      expect(preflight.headers['access-control-allow-origin']).toBe('*')
    }
  })

  test('the landing page, which shows the control state, gives no site CORS headers', async () => {
    at.app.sandbox.defineScenario({ name: 'team-only', description: 'ours' })
    // Express routes `//` to it too, and a target in absolute form.
    const absolute = `http://127.0.0.1:${at.port}/`
    for (const path of ['/', '/?token=x', '//', '//?x', absolute]) {
      const reply = await send(at.port, 'GET', path, { origin: EVIL })
      expect(reply.status).toBe(200)
      expect(reply.body).toContain('team-only')
      expect(reply.headers['access-control-allow-origin'], path).toBeUndefined()
      expect(reply.headers['access-control-expose-headers'], path).toBeUndefined()
    }
    // The documents are files of the package, the same for everyone.
    const document = await send(at.port, 'GET', '/openapi.json', { origin: EVIL })
    expect(document.headers['access-control-allow-origin']).toBe('*')
  })

  test('Access-Control-Allow-Private-Network goes to trusted origins only', async () => {
    const ask = (origin: string) =>
      send(at.port, 'OPTIONS', '/v1/pets', {
        origin,
        'access-control-request-method': 'GET',
        'access-control-request-private-network': 'true',
      })
    expect((await ask(EVIL)).headers['access-control-allow-private-network']).toBe(
      undefined,
    )
    expect(
      (await ask('http://localhost:5173')).headers[
        'access-control-allow-private-network'
      ],
    ).toBe('true')
  })
})

describe('a page of another site may use existing sessions, not make one (issue 21)', () => {
  /** The ids of the live sessions, as the control API lists them. */
  const sessionIds = async () => {
    const reply = await send(at.port, 'GET', '/__sandbox/sessions')
    return (JSON.parse(reply.body) as { sessions: Array<{ id: string }> }).sessions
      .map((session) => session.id)
      .sort()
  }

  test.each([
    [
      'the X-Sandbox-Session header',
      (id: string) => ({ ...FREE, 'x-sandbox-session': id }),
    ],
    [
      'a session key',
      (id: string) => ({ authorization: `Bearer sandbox-free-key.${id}` }),
    ],
  ])(
    'naming a new one with %s is 403 forbidden_origin, and nothing is made',
    async (_, naming) => {
      for (const origin of [EVIL, 'null', 'https://evil.example:4010']) {
        const before = await sessionIds()
        const pets = await world(at)
        for (const [method, body] of [
          ['GET', undefined],
          ['POST', '{"name":"Rex","categoryId":1}'],
        ] as const) {
          const reply = await send(
            at.port,
            method,
            '/v1/pets',
            { ...naming('from-a-page'), origin, ...(body ? JSON_TYPE : {}) },
            body,
          )
          expect(reply.status, `${origin} ${method}`).toBe(403)
          expect(codeOf(reply)).toBe('forbidden_origin')
          expect(JSON.parse(reply.body).message).toMatch(/--cors-origin/)
          // The browser may read the refusal: /v1 answers every origin.
          expect(reply.headers['access-control-allow-origin']).toBe('*')
          expect(reply.headers['x-sandbox-session-created']).toBeUndefined()
        }
        expect(await sessionIds()).toEqual(before)
        expect(await world(at)).toEqual(pets)
      }
    },
  )

  test('it uses the default session and a session that exists', async () => {
    const made = await send(at.port, 'GET', '/v1/pets?limit=1', {
      ...FREE,
      'x-sandbox-session': 'made-by-a-test',
    })
    expect(made.headers['x-sandbox-session-created']).toBe('true')
    for (const headers of [
      { ...FREE, 'x-sandbox-session': 'made-by-a-test' },
      { authorization: 'Bearer sandbox-free-key.made-by-a-test' },
      FREE,
    ]) {
      const read = await send(at.port, 'GET', '/v1/pets?limit=1', {
        ...headers,
        origin: EVIL,
      })
      expect(read.status).toBe(200)
    }
    const created = await send(
      at.port,
      'POST',
      '/v1/pets',
      { ...FREE, 'x-sandbox-session': 'made-by-a-test', origin: EVIL, ...JSON_TYPE },
      '{"name":"Rex","categoryId":1}',
    )
    expect(created.status).toBe(201)
    const session = await send(at.port, 'GET', '/__sandbox/sessions')
    expect(JSON.parse(session.body).sessions).toContainEqual(
      expect.objectContaining({ id: 'made-by-a-test', pets: 6 }),
    )
  })

  test('a session that expired is not made again for it', async () => {
    await send(at.port, 'GET', '/v1/pets', { ...FREE, 'x-sandbox-session': 'soon-gone' })
    // An hour and a second idle (the default TTL).
    idle += 3_601_000
    const reply = await send(at.port, 'GET', '/v1/pets', {
      ...FREE,
      'x-sandbox-session': 'soon-gone',
      origin: EVIL,
    })
    expect(reply.status).toBe(403)
    expect(codeOf(reply)).toBe('forbidden_origin')
  })

  test.each([
    'http://localhost:5173',
    'http://[::1]:3000',
    'https://app.example.com',
    'own origin',
  ])('a trusted origin makes sessions as before: %s', async (trusted) => {
    const origin = trusted === 'own origin' ? `http://127.0.0.1:${at.port}` : trusted
    const id = `trusted-${origin.replace(/[^A-Za-z0-9]/g, '-')}`
    for (const headers of [
      { ...FREE, 'x-sandbox-session': id },
      { authorization: `Bearer sandbox-free-key.${id}-key` },
    ]) {
      const reply = await send(at.port, 'GET', '/v1/pets?limit=1', { ...headers, origin })
      expect(reply.status).toBe(200)
      expect(reply.headers['x-sandbox-session-created']).toBe('true')
    }
    expect(await sessionIds()).toEqual(expect.arrayContaining([id, `${id}-key`]))
  })
})

describe('bound to loopback, only Host names of the machine are answered (DNS rebinding)', () => {
  const PAGES = [
    ['GET', '/v1/pets?limit=1'],
    ['POST', '/v1/pets'],
    ['GET', '/__sandbox'],
    ['POST', '/__sandbox/reset'],
    ['GET', '/'],
    ['GET', '/openapi.json'],
    ['GET', '/demo/'],
    ['GET', '/nothing-here'],
    ['OPTIONS', '/v1/pets'],
  ] as const

  test.each(['evil.example', 'evil.example:4010', 'EVIL.example', '10.0.0.1', '[::2]'])(
    'Host: %s is 403 forbidden_host on every path',
    async (host) => {
      const before = await world(at)
      for (const [method, path] of PAGES) {
        const reply = await send(
          at.port,
          method,
          path,
          {
            host,
            ...FREE,
            ...JSON_TYPE,
            'access-control-request-method': 'GET',
          },
          method === 'POST' ? '{"name":"Rex","categoryId":1}' : undefined,
        )
        expect(reply.status, `${method} ${path}`).toBe(403)
        expect(codeOf(reply)).toBe('forbidden_host')
        expect(JSON.parse(reply.body).message).toContain('--allowed-host')
      }
      expect(await world(at)).toEqual(before)
    },
  )

  test.each([
    'localhost',
    'localhost.',
    'LOCALHOST:4010',
    'app.localhost:5173',
    '127.0.0.1',
    '127.0.0.7:80',
    '[::1]:4010',
    '[::ffff:127.0.0.1]',
    '[0:0:0:0:0:0:0:1]',
  ])('Host: %s names the machine', async (host) => {
    const reply = await send(at.port, 'GET', '/v1/pets?limit=1', { host, ...FREE })
    expect(reply.status).toBe(200)
  })

  test('allowedHosts lets a name in (and its subdomains with a leading dot)', async () => {
    const allowed = await start({ allowedHosts: ['my-box.local', '.dev.example'] })
    try {
      for (const host of [
        'my-box.local',
        'MY-BOX.local:4010',
        'dev.example',
        'a.dev.example',
      ]) {
        const reply = await send(allowed.port, 'GET', '/v1/pets?limit=1', {
          host,
          ...FREE,
        })
        expect(reply.status, host).toBe(200)
      }
      for (const host of ['evil.example', 'my-box.local.evil.example', 'xdev.example']) {
        const reply = await send(allowed.port, 'GET', '/', { host })
        expect(reply.status, host).toBe(403)
      }
    } finally {
      await allowed.close()
    }
  })

  test('the bind is read from the server, whoever listens: app.listen and http.createServer too', async () => {
    const app = createSandboxApp({ seed: 42, count: 5 })
    const own = app.listen(0, '127.0.0.1')
    await new Promise((resolve) => own.once('listening', resolve))
    const plain = createServer(app)
    await new Promise<void>((resolve) => plain.listen(0, '127.0.0.1', resolve))
    try {
      for (const server of [own, plain]) {
        const { port } = server.address() as AddressInfo
        expect(codeOf(await send(port, 'GET', '/', { host: 'evil.example' }))).toBe(
          'forbidden_host',
        )
        expect((await send(port, 'GET', '/__sandbox')).status).toBe(200)
      }
    } finally {
      for (const server of [own, plain]) {
        server.close()
        server.closeAllConnections()
      }
    }
  })

  test('127.0.0.2 is loopback too', async () => {
    const other = await start({}, '127.0.0.2')
    try {
      const ok = await send(other.port, 'GET', '/__sandbox', {}, undefined, '127.0.0.2')
      expect(ok.status).toBe(200)
      const rebound = await send(
        other.port,
        'GET',
        '/__sandbox',
        { host: 'evil.example' },
        undefined,
        '127.0.0.2',
      )
      expect(codeOf(rebound)).toBe('forbidden_host')
    } finally {
      await other.close()
    }
  })
})

describe('the control token', () => {
  const expectLocked = async (port: number, token: string) => {
    const missing = await send(port, 'GET', '/__sandbox')
    expect(missing.status).toBe(401)
    expect(codeOf(missing)).toBe('control_token_required')
    const wrong = await send(port, 'POST', '/__sandbox/reset', {
      'x-sandbox-control-token': `${token}x`,
    })
    expect(wrong.status).toBe(403)
    expect(codeOf(wrong)).toBe('invalid_control_token')
    expect(
      (await send(port, 'GET', '/__sandbox', { 'x-sandbox-control-token': '' })).status,
    ).toBe(401)
    const right = await send(port, 'POST', '/__sandbox/reset', {
      'x-sandbox-control-token': token,
    })
    expect(right.status).toBe(200)
    // A link a browser follows carries it in the query.
    const link = await send(
      port,
      'GET',
      `/__sandbox/requests?token=${encodeURIComponent(token)}`,
    )
    expect(link.status).toBe(200)
    // An empty header is no header: the link's token still counts.
    const emptyHeader = await send(
      port,
      'GET',
      `/__sandbox/requests?token=${encodeURIComponent(token)}`,
      { 'x-sandbox-control-token': '' },
    )
    expect(emptyHeader.status).toBe(200)
    // The API and the pages do not need it.
    expect((await send(port, 'GET', '/v1/pets?limit=1', FREE)).status).toBe(200)
    expect((await send(port, 'GET', '/')).status).toBe(200)
  }

  test('a server bound beyond loopback requires a generated one', async () => {
    const app = createSandboxApp({ seed: 42, count: 5 })
    const server = await listenSandboxApp(app, { port: 0, host: '127.0.0.1' })
    // The test listens on loopback only; the app reads the bind from the server.
    const { port } = server.address() as AddressInfo
    server.address = () => ({ address: '0.0.0.0', family: 'IPv4', port })
    const exposed = running(app, server)
    try {
      expect(app.controlToken).toMatch(/^[A-Za-z0-9_-]{32}$/)
      expect(createSandboxApp().controlToken).not.toBe(app.controlToken)
      await expectLocked(port, app.controlToken as string)
      // The Host is not checked there: the network reaches it by any name.
      const named = await send(port, 'GET', '/v1/pets?limit=1', {
        host: 'box.example',
        ...FREE,
      })
      expect(named.status).toBe(200)
      // The origin rule still holds, before the token.
      const page = await send(port, 'POST', '/__sandbox/reset', {
        origin: EVIL,
        'x-sandbox-control-token': app.controlToken as string,
      })
      expect(codeOf(page)).toBe('forbidden_origin')
    } finally {
      await exposed.close()
    }
  })

  test('a token given is required on any bind, loopback too', async () => {
    const locked = await start({ controlToken: 's3cret-token' })
    try {
      expect(locked.app.controlToken).toBe('s3cret-token')
      await expectLocked(locked.port, 's3cret-token')
    } finally {
      await locked.close()
    }
  })

  test("controlToken: 'off' requires none, even beyond loopback", async () => {
    const app = createSandboxApp({ seed: 42, controlToken: 'off' })
    const server = await listenSandboxApp(app, { port: 0, host: '127.0.0.1' })
    const { port } = server.address() as AddressInfo
    server.address = () => ({ address: '::', family: 'IPv6', port })
    try {
      expect(app.controlToken).toBeUndefined()
      expect((await send(port, 'POST', '/__sandbox/reset')).status).toBe(200)
    } finally {
      await running(app, server).close()
    }
  })

  test('the landing page passes the right token on to its links, never a wrong one', async () => {
    const locked = await start({ controlToken: 'tok-123' })
    try {
      const page = await send(locked.port, 'GET', '/?token=tok-123')
      expect(page.body).toContain('href="/__sandbox/requests?token=tok-123"')
      expect(page.headers['referrer-policy']).toBe('no-referrer')
      const forged = await send(locked.port, 'GET', '/?token=%22%3E%3Cscript%3E')
      expect(forged.body).not.toContain('?token=')
      expect(forged.body).not.toContain('<script>')
    } finally {
      await locked.close()
    }
  })
})

test('options that are not origins, host names or tokens are refused when the app is created', () => {
  for (const options of [
    { allowedOrigins: ['https://app.example.com/path'] },
    { allowedOrigins: ['*'] },
    { allowedOrigins: 'https://app.example.com' as unknown as string[] },
    { allowedHosts: ['http://box.local'] },
    { controlToken: '' },
    { controlToken: 'has space' },
  ]) {
    expect(() => createSandboxApp(options), JSON.stringify(options)).toThrow(SandboxError)
  }
  // One origin given as a string is told to put it in brackets, not that it is no origin.
  expect(() =>
    createSandboxApp({ allowedOrigins: 'https://a.com' as unknown as string[] }),
  ).toThrow(
    'allowedOrigins must be an array of strings, got "https://a.com". Put it in brackets, even for one: allowedOrigins: ["https://a.com"].',
  )
})
