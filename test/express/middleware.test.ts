import type { AddressInfo } from 'node:net'
import { request as httpRequest, type Server } from 'node:http'
import express from 'express'
import { afterAll, beforeAll, expect, test, vi } from 'vitest'
import { createSandbox, createSandboxMiddleware } from 'petstore-sandbox/express'
import { cliFastPath } from '../../src/cli/fast-path.js'
import { buildSandboxMiddleware } from '../../src/express/create-sandbox-middleware.js'
import { rawRequest as rawSocket } from '../hostile/raw-http.js'
import { listenOnLoopback } from './start-app.js'

const FREE = { authorization: 'Bearer sandbox-free-key' }
const sandbox = createSandbox({ seed: 42 })
let server: Server
let origin: string
let close: () => Promise<void>

beforeAll(async () => {
  // A user's own app: the sandbox mounted under /mock, beside their routes and a body
  // parser that runs first on another path.
  const app = express()
  app.get('/health', (_req, res) => void res.json({ ok: true }))
  app.use('/mock', createSandboxMiddleware(sandbox))
  app.use('/parsed', express.json(), createSandboxMiddleware(sandbox))
  // The CLI's way through its pinned msw (test/cli/fast-path.test.ts holds it to msw).
  app.use('/fast', buildSandboxMiddleware(sandbox, {}, { fastPath: cliFastPath }))
  ;({ server, origin, close } = await listenOnLoopback(app))
})
afterAll(() => close())

test('mounted under a path, it serves the API and the control endpoints below it', async () => {
  const pets = await fetch(`${origin}/mock/v1/pets?limit=2`, { headers: FREE })
  expect(pets.status).toBe(200)
  expect(await pets.json()).toEqual(sandbox.db.pets.all().slice(0, 2))
  expect((await fetch(`${origin}/mock/__sandbox`)).status).toBe(200)
})

test('mounted under a path, its links and messages name the path the client calls', async () => {
  const pet = await fetch(`${origin}/mock/v1/pets/1`, { headers: FREE })
  expect(pet.status).toBe(200)
  expect(pet.headers.get('link')).toBe('</mock/v1/pets>; rel="successor-version"')
  const orders = await fetch(`${origin}/mock/v1/store/orders`, { headers: FREE })
  expect((await orders.json()).message).toMatch(/Use GET \/mock\/v1\/pets\b/)
  // Through the CLI's path too, and under another mount its own.
  const fast = await fetch(`${origin}/fast/v1/pets/1`, { headers: FREE })
  expect(fast.headers.get('link')).toBe('</fast/v1/pets>; rel="successor-version"')
})

test('other requests go on to the app', async () => {
  expect(await (await fetch(`${origin}/health`)).json()).toEqual({ ok: true })
  // Outside /v1 and /__sandbox the middleware steps aside; Express answers its own 404.
  expect((await fetch(`${origin}/mock/other`)).status).toBe(404)
})

test('after a body parser, the parsed body is passed on', async () => {
  const response = await fetch(`${origin}/parsed/v1/pets`, {
    method: 'POST',
    headers: { ...FREE, 'content-type': 'application/json' },
    body: JSON.stringify({ name: 'Parsed', categoryId: 3 }),
  })
  expect(response.status).toBe(201)
  expect(await response.json()).toMatchObject({ name: 'Parsed', categoryId: 3 })
})

test('it exposes the sandbox it serves, or creates one from options', () => {
  expect(createSandboxMiddleware(sandbox).sandbox).toBe(sandbox)
  const created = createSandboxMiddleware({ seed: 7, count: 3, bodyLimit: 1024 })
  expect(created.sandbox.count).toBe(3)
  expect(() => createSandboxMiddleware({ bodyLimit: -1 })).toThrow(
    /Failed to create the Express adapter: bodyLimit -1/,
  )
})

/** One request with node:http (no Fetch objects on the client side); the raw answer. */
function rawRequest(method: string, path: string, body?: string) {
  return new Promise<{ status: number; headers: Record<string, unknown>; bytes: Buffer }>(
    (resolve, reject) => {
      const outgoing = httpRequest(
        `${origin}${path}`,
        {
          method,
          headers: { ...FREE, ...(body ? { 'content-type': 'application/json' } : {}) },
        },
        (incoming) => {
          const chunks: Buffer[] = []
          incoming.on('data', (chunk: Buffer) => chunks.push(chunk))
          incoming.on('end', () =>
            resolve({
              status: incoming.statusCode ?? 0,
              headers: incoming.headers,
              bytes: Buffer.concat(chunks),
            }),
          )
        },
      )
      outgoing.on('error', reject)
      outgoing.end(body)
    },
  )
}

test('Content-Length counts bytes, not characters, so multi-byte names arrive whole', async () => {
  const name = 'Rüdiger 🐕 Ölçü'
  const created = await rawRequest(
    'POST',
    '/mock/v1/pets',
    JSON.stringify({ name, categoryId: 2 }),
  )
  expect(created.status).toBe(201)
  expect(created.headers['content-length']).toBe(String(created.bytes.length))
  expect(created.headers['transfer-encoding']).toBeUndefined()
  const pet = JSON.parse(created.bytes.toString('utf8')) as { id: number; name: string }
  expect(pet.name).toBe(name)

  const fetched = await rawRequest('GET', `/mock/v1/pets/${pet.id}`)
  expect(fetched.status).toBe(200)
  expect(fetched.headers['content-length']).toBe(String(fetched.bytes.length))
  expect(JSON.parse(fetched.bytes.toString('utf8'))).toEqual(pet)
})

test("on the CLI's fast path msw clones no request it never reads; on the user's msw it does (npm run bench)", async () => {
  // msw clones each request for its lifecycle events; getResponse has none, so the
  // CLI's fast path fills msw's clone cache with the request itself. The library
  // adapter uses msw's public API only, so there msw clones as it always does.
  const clone = vi.spyOn(Request.prototype, 'clone')
  try {
    const created = await rawRequest(
      'POST',
      '/fast/v1/pets',
      JSON.stringify({ name: 'Unclonable', categoryId: 1 }),
    )
    expect(created.status).toBe(201)
    expect(JSON.parse(created.bytes.toString('utf8'))).toMatchObject({
      name: 'Unclonable',
    })
    expect((await rawRequest('GET', '/fast/v1/pets?limit=1')).status).toBe(200)
    expect(clone).not.toHaveBeenCalled()
    expect((await rawRequest('GET', '/mock/v1/pets?limit=1')).status).toBe(200)
    expect(clone).toHaveBeenCalled()
  } finally {
    clone.mockRestore()
  }
})

test('no request of the sandbox has a body stream and no Response is built for its answers: the adapter hands the bytes and writes the reply (npm run bench)', async () => {
  // Node 20's undici makes a ReadableStream for every Request and Response body, eagerly.
  const { Request: OriginalRequest, Response: OriginalResponse } = globalThis
  const bodies: unknown[] = []
  const responses: unknown[] = []
  globalThis.Request = class extends OriginalRequest {
    constructor(input: RequestInfo | URL, init?: RequestInit) {
      super(input, init)
      bodies.push(init?.body ?? null)
    }
  }
  globalThis.Response = class extends OriginalResponse {
    constructor(body?: BodyInit | null, init?: ResponseInit) {
      super(body, init)
      responses.push(body ?? null)
    }
  }
  try {
    const created = await rawRequest(
      'POST',
      '/mock/v1/pets',
      JSON.stringify({ name: 'Streamless', categoryId: 1 }),
    )
    const listed = await rawRequest('GET', '/mock/v1/pets?limit=1')
    const refused = await rawRequest('GET', '/mock/v1/pets?limit=0')
    expect([created.status, listed.status, refused.status]).toEqual([201, 200, 400])
    expect(JSON.parse(created.bytes.toString('utf8'))).toMatchObject({
      name: 'Streamless',
    })
    expect(JSON.parse(listed.bytes.toString('utf8'))).toHaveLength(1)
    expect(JSON.parse(refused.bytes.toString('utf8'))).toMatchObject({ status: 400 })
    expect(bodies).toEqual([null, null, null])
    expect(responses).toEqual([])
  } finally {
    globalThis.Request = OriginalRequest
    globalThis.Response = OriginalResponse
  }
})

test('in a user app too, TRACE is 405 and another host named in the request line is 400 invalid_path, never a 500', async () => {
  const port = (server.address() as AddressInfo).port
  const send = (line: string) =>
    rawSocket(port, [
      `${line} HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nAuthorization: Bearer sandbox-free-key\r\nConnection: close\r\n\r\n`,
    ])
  const trace = await send('TRACE /mock/v1/pets')
  expect(trace.status).toBe(405)
  expect(trace.headers.allow).toBe('GET, HEAD, POST')
  // Without a key too: the method is refused before authentication (it was 401).
  for (const prefix of ['/mock', '/fast']) {
    const keyless = await rawSocket(port, [
      `TRACE ${prefix}/v1/pets/1 HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nConnection: close\r\n\r\n`,
    ])
    expect(keyless.status, prefix).toBe(405)
    expect(keyless.headers.allow, prefix).toBe('GET, HEAD')
    expect(keyless.headers['x-ratelimit-limit'], prefix).toMatch(/^\d+$/)
  }
  for (const prefix of ['/mock', '/fast']) {
    const other = await send(`GET http://evil.example${prefix}/v1/pets`)
    expect(other.status, prefix).toBe(400)
    expect(JSON.parse(other.body).code).toBe('invalid_path')
    const own = await send(`GET http://127.0.0.1:${port}${prefix}/v1/pets?limit=1`)
    expect(own.status, prefix).toBe(200)
    const escape = await send(`DELETE ${prefix}/__sandbox/sessions/%ZZ`)
    expect(escape.status, prefix).toBe(400)
  }
  // Not a path of the sandbox's: the app answers it (its own 404).
  expect((await send('GET *')).status).toBe(404)
})

test("a handler of the user's that throws reaches the app's error handler through next(error), journalled as an override's", async () => {
  const { http } = await import('msw')
  const own = createSandbox({
    seed: 42,
    handlers: [
      http.get('*/v1/pets/:id', () => {
        throw new Error('boom in my handler')
      }),
    ],
  })
  const heard: Error[] = []
  const app = express()
  app.use(createSandboxMiddleware(own))
  app.use(
    (
      error: Error,
      _req: express.Request,
      res: express.Response,
      _next: express.NextFunction,
    ) => {
      heard.push(error)
      res.status(500).json({ mine: true })
    },
  )
  const mine = await listenOnLoopback(app)
  try {
    const response = await fetch(`${mine.origin}/v1/pets/7`, { headers: FREE })
    expect(response.status).toBe(500)
    expect(await response.json()).toEqual({ mine: true })
    expect(heard.map((error) => error.name)).toEqual(['HandlerThrewError'])
    expect((heard[0]?.cause as Error).message).toBe('boom in my handler')
    expect(own.journal.recent()[0]).toMatchObject({
      path: '/v1/pets/7',
      status: 500,
      override: true,
    })
  } finally {
    await mine.close()
  }
})
