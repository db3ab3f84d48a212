import type { Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { createSandboxApp, listenSandboxApp } from 'petstore-sandbox/express'
import { rawRequest, type RawReply } from '../hostile/raw-http.js'
import { startApp } from './start-app.js'

let server: Server
let port: number

beforeAll(async () => {
  // sandbox.test: a name of another machine, answered on loopback once allowed.
  server = await listenSandboxApp(
    createSandboxApp({ seed: 42, allowedHosts: ['sandbox.test'] }),
    {
      port: 0,
      host: '127.0.0.1',
    },
  )
  port = (server.address() as AddressInfo).port
})
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())))

// HTTP/1.1 servers must accept the absolute form proxies send (RFC 9112, 3.2.2).
test('a request line with an absolute URL is answered like its path', async () => {
  const reply = await rawRequest(port, [
    `GET http://127.0.0.1:${port}/v1/pets?limit=2 HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nAuthorization: Bearer sandbox-free-key\r\nConnection: close\r\n\r\n`,
  ])
  expect(reply.status).toBe(200)
  expect(JSON.parse(reply.body)).toHaveLength(2)
  expect(reply.headers['x-ratelimit-remaining']).toBe('59')
})

const send = (line: string, headers = `Host: 127.0.0.1:${port}`, body = '') =>
  rawRequest(port, [
    `${line} HTTP/1.1\r\n${headers}\r\nAuthorization: Bearer sandbox-free-key\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
  ])

/** The control API's view of the sandbox, to see that no refused request changed it. */
async function state() {
  const reply = await send('GET /__sandbox')
  const body = JSON.parse(reply.body) as { scenario: { name: string }; counts: unknown }
  return { scenario: body.scenario.name, counts: body.counts }
}

describe('a path that could name two endpoints is 400 invalid_path before any routing', () => {
  test.each([
    'POST /v1/%2e%2e/__sandbox/reset',
    'POST /v1/%2E%2E/__sandbox/reset',
    'POST /v1/.%2e/__sandbox/reset',
    'POST /v1/../__sandbox/reset',
    'POST /v1/pets/../../__sandbox/reset',
    'POST /v1/./../__sandbox/reset',
    'POST /v1%2f..%2f__sandbox/reset',
    'POST /v1\\..\\__sandbox/reset',
    'POST /v1/%5c../__sandbox/reset',
    'PUT /v1/%2e%2e/__sandbox/scenario',
    'GET /v1/pets/%2e%2e',
    'GET /v1/pets%2F1',
    'GET /v1/./pets',
    'GET /__sandbox/../v1/pets',
    'GET /demo/%2e%2e/openapi.json',
  ])('%s', async (line) => {
    const created = await send(
      'POST /v1/pets',
      undefined,
      JSON.stringify({ name: 'Kept', categoryId: 1 }),
    )
    expect(created.status).toBe(201)
    const before = await state()
    const reply = await send(line, undefined, JSON.stringify({ name: 'rate-limited' }))
    expect(reply.status).toBe(400)
    expect(JSON.parse(reply.body)).toMatchObject({ code: 'invalid_path', status: 400 })
    expect(JSON.parse(reply.body).message).toMatch(/segment/)
    expect(reply.headers['content-type']).toBe('application/json')
    expect(reply.headers['x-ratelimit-limit']).toBe('60')
    expect(await state()).toEqual(before)
  })

  test("a refused page's path is not journalled; a refused /v1 path is", async () => {
    for (const line of [
      'GET /demo/%2e%2e/openapi.json',
      'GET /inspector/.',
      'GET /v1/%2e%2e',
    ]) {
      expect((await send(line)).status, line).toBe(400)
    }
    const journal = JSON.parse(
      (await send('GET /__sandbox/requests?limit=200')).body,
    ) as {
      requests: Array<{ path: string }>
    }
    const paths = journal.requests.map((entry) => entry.path)
    expect(paths).toContain('/v1/%2e%2e')
    expect(paths).not.toContain('/demo/%2e%2e/openapi.json')
    expect(paths).not.toContain('/inspector/.')
  })

  test('the absolute form of a request target is checked as sent too', async () => {
    const before = await state()
    const reply = await send(`POST http://127.0.0.1:${port}/v1/../__sandbox/reset`)
    expect(reply.status).toBe(400)
    expect(JSON.parse(reply.body).code).toBe('invalid_path')
    expect(await state()).toEqual(before)
  })

  test('dots inside a segment are only characters', async () => {
    expect((await send('GET /v1/pets/1.5')).status).toBe(400)
    expect(JSON.parse((await send('GET /v1/pets/1.5')).body).code).toBe(
      'validation_failed',
    )
    expect((await send('GET /v1/pets...')).status).toBe(404)
  })
})

describe('a Host that is not a host is 400 invalid_host', () => {
  test.each([
    '127.0.0.1/__sandbox/reset#',
    '127.0.0.1/__sandbox/reset?',
    'user@127.0.0.1',
    '127.0.0.1:4010/x',
    '127.0.0.1\\__sandbox',
    'a b',
    '127.0.0.1:99999',
  ])('Host: %s', async (host) => {
    const before = await state()
    for (const line of ['POST /v1/pets', 'GET /', 'POST /__sandbox/reset']) {
      const reply = await send(line, `Host: ${host}`)
      expect(reply.status, line).toBe(400)
      expect(JSON.parse(reply.body)).toMatchObject({ code: 'invalid_host', status: 400 })
    }
    expect(await state()).toEqual(before)
  })

  test('a host with a port, an IPv6 address and a name are hosts', async () => {
    for (const host of [
      `127.0.0.1:${port}`,
      `[::1]:${port}`,
      'localhost',
      'sandbox.test',
    ]) {
      expect((await send('GET /v1/pets?limit=1', `Host: ${host}`)).status, host).toBe(200)
    }
  })
})

describe('odd request lines are answered, never a 500 (CONTRACT "Odd requests")', () => {
  /** A server of its own, whose onError sees any 500: none may happen. */
  let odd: Awaited<ReturnType<typeof startApp>>
  const errors: unknown[] = []
  beforeAll(async () => {
    odd = await startApp({ seed: 42, onError: (error) => errors.push(error) })
  })
  afterAll(() => odd?.close())

  const line = (requestLine: string, host = `127.0.0.1:${odd.port}`) =>
    rawRequest(odd.port, [
      `${requestLine} HTTP/1.1\r\nHost: ${host}\r\nAuthorization: Bearer sandbox-free-key\r\nContent-Length: 0\r\nConnection: close\r\n\r\n`,
    ])
  const errorOf = (reply: RawReply) => {
    expect(reply.headers['content-type']).toBe('application/json')
    const body = JSON.parse(reply.body)
    expect(body.status).toBe(reply.status)
    expect(body.message).toMatch(/\w{3,}/)
    return body as { code: string; message: string }
  }

  test.each([
    ['TRACE /v1/pets', 'GET, HEAD, POST'],
    ['TRACE /v1/pets/1', 'GET, HEAD'],
    ['TRACE /__sandbox', 'GET, HEAD'],
    ['TRACE /__sandbox/reset', 'POST'],
    ['PROPFIND /v1/pets', 'GET, HEAD, POST'],
    ['M-SEARCH /__sandbox/sessions', 'GET, HEAD, POST'],
    ['POST /', 'GET, HEAD'],
    ['TRACE /', 'GET, HEAD'],
    ['DELETE /openapi.json', 'GET, HEAD'],
    ['OPTIONS /', 'GET, HEAD'],
  ])('%s is 405 method_not_allowed with Allow: %s', async (requestLine, allow) => {
    const reply = await line(requestLine)
    expect(reply.status, reply.body).toBe(405)
    expect(errorOf(reply).code).toBe('method_not_allowed')
    expect(reply.headers.allow).toBe(allow)
    expect(errors).toEqual([])
  })

  test('TRACE without a key, or with one that is not valid, is 405 too: the method is refused before authentication', async () => {
    for (const authorization of ['', 'Authorization: Bearer not-a-key\r\n']) {
      const reply = await rawRequest(odd.port, [
        `TRACE /v1/pets HTTP/1.1\r\nHost: 127.0.0.1:${odd.port}\r\n${authorization}Connection: close\r\n\r\n`,
      ])
      expect(reply.status, reply.body).toBe(405)
      expect(errorOf(reply).code).toBe('method_not_allowed')
      expect(reply.headers.allow).toBe('GET, HEAD, POST')
    }
    expect(errors).toEqual([])
  })

  test('TRACE is journalled as TRACE', async () => {
    await line('TRACE /v1/pets?limit=1')
    const journal = await fetch(`${odd.origin}/__sandbox/requests?limit=1`)
    expect((await journal.json()).requests[0]).toMatchObject({
      method: 'TRACE',
      path: '/v1/pets?limit=1',
      status: 405,
    })
  })

  test.each(['FOO /v1/pets', 'TRACK /v1/pets', 'get /v1/pets', "A!#$%&'*+-.^_`|~9 /"])(
    'a method token Node does not parse (%s) is 405 with the Allow of the server',
    async (requestLine) => {
      const reply = await line(requestLine)
      expect(reply.status, reply.body).toBe(405)
      expect(errorOf(reply).code).toBe('method_not_allowed')
      expect(reply.headers.allow).toBe('GET, HEAD, POST, PUT, DELETE, OPTIONS')
      expect(reply.headers['x-ratelimit-limit']).toBe('60')
    },
  )

  test.each([
    'GET *',
    'OPTIONS *',
    'POST *',
    'GET http://evil.example/v1/pets',
    'POST http://evil.example/__sandbox/reset',
    'GET https://evil.example/',
    'GET http://sandbox-free-key@127.0.0.1/v1/pets',
    'GET ftp://127.0.0.1/v1/pets',
  ])(
    'a target that is not a path of this server (%s) is 400 invalid_path',
    async (requestLine) => {
      const view = async () => {
        const state = await fetch(`${odd.origin}/__sandbox`).then((reply) => reply.json())
        return { counts: state.counts, scenario: state.scenario }
      }
      const before = await view()
      const reply = await line(requestLine)
      expect(reply.status, reply.body).toBe(400)
      expect(errorOf(reply).code).toBe('invalid_path')
      expect(await view()).toEqual(before)
      expect(errors).toEqual([])
    },
  )

  test('the absolute form naming this server (its Host) is answered like its path', async () => {
    for (const target of [
      `http://127.0.0.1:${odd.port}/v1/pets?limit=1`,
      `HTTP://127.0.0.1:${odd.port}/v1/pets?limit=1`,
    ]) {
      const reply = await line(`GET ${target}`)
      expect(reply.status, reply.body).toBe(200)
      expect(JSON.parse(reply.body)).toHaveLength(1)
    }
    // Named by the Host it came with: another Host, another answer.
    const other = await line(`GET http://127.0.0.1:${odd.port}/v1/pets`, 'localhost')
    expect(other.status).toBe(400)
  })

  test('HEAD of a page is its GET without the body', async () => {
    const get = await line('GET /')
    const head = await line('HEAD /')
    expect(head.status).toBe(200)
    expect(head.body).toBe('')
    expect(head.headers['content-type']).toBe(get.headers['content-type'])
  })

  test('a malformed escape in the path of a page is 400 invalid_path too', async () => {
    for (const target of ['/%ZZ', '/demo/%E0%A4%A', '/?token=%ZZ']) {
      const reply = await line(`GET ${target}`)
      expect(reply.status, target).toBe(400)
      expect(errorOf(reply).code).toBe('invalid_path')
    }
  })
})
