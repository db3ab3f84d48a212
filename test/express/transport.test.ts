import { connect } from 'node:net'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { TRANSPORT_LIMITS } from 'petstore-sandbox/express'
import { hangingRequest, rawRequest, type RawReply } from '../hostile/raw-http.js'
import { startApp } from './start-app.js'

// Answers the standalone server gives on the socket, before or instead of the app:
// each with the Error body and the anonymous rate-limit window (item 6 of issue 14).

let app: Awaited<ReturnType<typeof startApp>>
beforeAll(async () => {
  app = await startApp({ count: 3 })
})
afterAll(() => app.close())

const HOST = 'Host: 127.0.0.1\r\n'

function expectErrorReply(reply: RawReply, status: number, code: string) {
  expect(reply.status, reply.body).toBe(status)
  expect(reply.headers['content-type']).toMatch(/^application\/json/)
  const body = JSON.parse(reply.body) as { code: string; message: string; status: number }
  expect(body).toEqual({ code, message: expect.any(String), status })
  // Every response carries the rate-limit headers: the anonymous (Free) window here.
  expect(reply.headers['x-ratelimit-limit']).toBe('60')
  expect(reply.headers['x-ratelimit-remaining']).toMatch(/^\d+$/)
  expect(reply.headers['x-ratelimit-reset']).toMatch(/^\d+$/)
  return body
}

describe('socket-level answers', () => {
  test('CONNECT is 405 with Allow and the Error body, not a closed socket', async () => {
    const reply = await rawRequest(app.port, [
      'CONNECT example.com:443 HTTP/1.1\r\nHost: example.com:443\r\n\r\n',
    ])
    const body = expectErrorReply(reply, 405, 'method_not_allowed')
    expect(body.message).toMatch(/not a proxy/)
    expect(reply.headers.allow).toMatch(/GET.*POST/)
  })

  test('an Expect other than 100-continue is 417 expectation_failed with the Error body', async () => {
    const reply = await rawRequest(app.port, [
      `GET /v1/pets HTTP/1.1\r\n${HOST}Expect: 200-ok\r\n\r\n`,
    ])
    const body = expectErrorReply(reply, 417, 'expectation_failed')
    expect(body.message).toMatch(/200-ok/)
  })

  test('431, unparsable requests (400) and a missing Host carry the rate-limit headers', async () => {
    const big = `GET /v1/pets HTTP/1.1\r\n${HOST}X-Big: ${'a'.repeat(20_000)}\r\n\r\n`
    expectErrorReply(
      await rawRequest(app.port, [big]),
      431,
      'request_header_fields_too_large',
    )
    expectErrorReply(
      await rawRequest(app.port, ['GET /v1/pets HTTP/1.1\r\nBad Header\r\n\r\n']),
      400,
      'bad_request',
    )
    expectErrorReply(
      await rawRequest(app.port, ['GET /v1/pets HTTP/1.1\r\n\r\n']),
      400,
      'bad_request',
    )
  })

  test('a 408 says which limit fired: the headers, or the whole request', async () => {
    const saved = { ...TRANSPORT_LIMITS }
    TRANSPORT_LIMITS.headersTimeoutMs = 300
    TRANSPORT_LIMITS.requestTimeoutMs = 900
    let quick: Awaited<ReturnType<typeof startApp>>
    try {
      quick = await startApp({ count: 3 })
    } finally {
      Object.assign(TRANSPORT_LIMITS, saved)
    }
    try {
      const [headers, body] = await Promise.all([
        hangingRequest(quick.port, [`GET /v1/pets HTTP/1.1\r\n${HOST}`]),
        hangingRequest(quick.port, [
          `POST /v1/pets HTTP/1.1\r\n${HOST}Content-Type: application/json\r\nContent-Length: 40\r\n\r\n{"name":`,
        ]),
      ])
      const headerReply = expectErrorReply(await headers.reply, 408, 'request_timeout')
      expect(headerReply.message).toMatch(/headers were not received within 0\.3 s/)
      const bodyReply = expectErrorReply(await body.reply, 408, 'request_timeout')
      expect(bodyReply.message).toMatch(/body was not received within 0\.9 s/)
    } finally {
      await quick.close()
    }
  })
})

describe('one response at a time per connection', () => {
  test('pipelined requests are answered in order, each whole', async () => {
    const count = 5
    const replies = await new Promise<string>((resolve, reject) => {
      const socket = connect(app.port, '127.0.0.1')
      let text = ''
      socket.on('data', (chunk: Buffer) => {
        text += chunk.toString('latin1')
        if (
          (text.match(/HTTP\/1\.1 200/g) ?? []).length === count &&
          text.endsWith(']')
        ) {
          socket.destroy()
          resolve(text)
        }
      })
      socket.on('error', reject)
      setTimeout(() => reject(new Error(`only got: ${text.slice(0, 300)}`)), 5000)
      const request = (limit: number) =>
        `GET /v1/pets?limit=${limit} HTTP/1.1\r\n${HOST}Authorization: Bearer sandbox-free-key\r\n\r\n`
      socket.write(
        Array.from({ length: count }, (_, index) => request((index % 3) + 1)).join(''),
      )
    })
    const bodies = replies.split(/HTTP\/1\.1 200 OK\r\n/).slice(1)
    expect(
      bodies.map(
        (reply) => JSON.parse(reply.slice(reply.indexOf('\r\n\r\n') + 4)).length,
      ),
    ).toEqual([1, 2, 3, 1, 2])
  })

  test(`more than ${TRANSPORT_LIMITS.maxPipelinedRequests} requests waiting on one connection close it`, async () => {
    // A slow first answer (latency) keeps the others waiting.
    const slow = await startApp({ count: 3, latency: 2000 })
    try {
      const socket = connect(slow.port, '127.0.0.1')
      socket.on('error', () => {})
      const closed = new Promise<number>((resolve) => {
        const started = performance.now()
        socket.on('close', () => resolve(performance.now() - started))
      })
      const request = `GET /v1/pets HTTP/1.1\r\n${HOST}Authorization: Bearer sandbox-pro-key\r\n\r\n`
      socket.write(request.repeat(TRANSPORT_LIMITS.maxPipelinedRequests + 2))
      // At once, not after the first answer.
      expect(await closed).toBeLessThan(1500)
    } finally {
      await slow.close()
    }
  })

  test("a client that hangs up during a scenario's latency no longer holds its request: the wait ends", async () => {
    const slow = await startApp({ count: 3, latency: 30_000 })
    try {
      const socket = connect(slow.port, '127.0.0.1')
      socket.on('error', () => {})
      const body = JSON.stringify({
        name: 'Left',
        categoryId: 1,
        note: 'x'.repeat(30_000),
      })
      socket.write(
        `POST /v1/pets HTTP/1.1\r\n${HOST}Authorization: Bearer sandbox-pro-key\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\n\r\n${body}`,
      )
      await new Promise((resolve) => setTimeout(resolve, 200))
      socket.destroy()
      const started = performance.now()
      while (
        slow.sandbox.journal.recent().length === 0 &&
        performance.now() - started < 5000
      )
        await new Promise((resolve) => setTimeout(resolve, 20))
      // Answered (the create happened, as on a server whose client left) and journalled
      // at once, not 30 s later.
      const [entry] = slow.sandbox.journal.recent()
      expect(entry).toMatchObject({ method: 'POST', status: 201 })
      expect(entry?.durationMs).toBeLessThan(5000)
      expect(slow.sandbox.state().counts.pets).toBe(4)
    } finally {
      await slow.close()
    }
  })

  test('a client that stops reading is disconnected after the send timeout', async () => {
    const saved = { ...TRANSPORT_LIMITS }
    TRANSPORT_LIMITS.sendTimeoutMs = 300
    let quick: Awaited<ReturnType<typeof startApp>>
    try {
      // ~300 KB a page: a few pages fill the kernel's buffers, the next stays with us.
      const pets = Array.from({ length: 100 }, () => ({
        name: '€'.repeat(1000),
        categoryId: 1,
      }))
      quick = await startApp({ fixtures: { pets } })
    } finally {
      Object.assign(TRANSPORT_LIMITS, saved)
    }
    try {
      const socket = connect(quick.port, '127.0.0.1')
      socket.on('error', () => {})
      socket.pause()
      const request = `GET /v1/pets?limit=100 HTTP/1.1\r\n${HOST}Authorization: Bearer sandbox-enterprise-key\r\n\r\n`
      socket.write(request.repeat(TRANSPORT_LIMITS.maxPipelinedRequests + 1))
      const connections = () =>
        new Promise<number>((resolve) =>
          quick.server.getConnections((_error, count) => resolve(count)),
        )
      const started = performance.now()
      let open = 1
      while (open > 0 && performance.now() - started < 5000) {
        await new Promise((resolve) => setTimeout(resolve, 50))
        open = await connections()
      }
      expect(open).toBe(0)
      socket.destroy()
    } finally {
      await quick.close()
    }
  })
})
