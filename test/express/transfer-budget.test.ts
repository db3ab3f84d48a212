import { request as httpRequest, type IncomingHttpHeaders } from 'node:http'
import express from 'express'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { createSandbox } from 'petstore-sandbox/express'
import { buildSandboxMiddleware } from '../../src/express/create-sandbox-middleware.js'
import { TransferBudget } from '../../src/express/transfer-budget.js'
import { listenOnLoopback } from './start-app.js'

// Large bodies and answers (imports, exports) hold their bytes while a slow client sends
// or reads them: one budget per server bounds them all (docs/server.md, limits).

describe('TransferBudget', () => {
  test('small transfers never wait; large ones share the budget; one alone may pass it', () => {
    const budget = new TransferBudget(4096, 1024)
    expect(budget.take(1023)).toBe(true)
    expect(budget.used).toBe(0)
    expect(budget.take(3000)).toBe(true)
    expect(budget.take(2000)).toBe(false)
    expect(budget.take(1096)).toBe(true)
    expect(budget.used).toBe(4096)
    budget.give(3000)
    budget.give(1096)
    expect(budget.used).toBe(0)
    // Larger than the whole budget: passes when it is the only one.
    expect(budget.take(10_000)).toBe(true)
    expect(budget.take(1024)).toBe(false)
  })
})

describe('a server whose large transfers fill the budget answers 503 until there is room', () => {
  const budget = new TransferBudget(8192, 1024)
  const sandbox = createSandbox({ seed: 42, count: 50 })
  let origin: string
  let close: () => Promise<void>
  beforeAll(async () => {
    const app = express()
    app.use(buildSandboxMiddleware(sandbox, {}, { transferBudget: budget }))
    ;({ origin, close } = await listenOnLoopback(app))
  })
  afterAll(() => close())
  const othersInFlight = () => budget.take(8192)

  test('an export (an answer of 1 KiB or more)', async () => {
    expect(othersInFlight()).toBe(true)
    const busy = await fetch(`${origin}/__sandbox/export`)
    expect(busy.status).toBe(503)
    expect(busy.headers.get('retry-after')).toBe('1')
    expect(busy.headers.get('x-sandbox-request-id')).toMatch(/^\d+$/)
    const body = await busy.json()
    expect(body).toMatchObject({ code: 'service_unavailable', status: 503 })
    expect(body.message).toMatch(
      /^The server holds 8 KiB of large answers in flight at most/,
    )
    budget.give(8192)
    const sent = await fetch(`${origin}/__sandbox/export`)
    expect(sent.status).toBe(200)
    const data = await sent.json()
    expect(data.pets).toHaveLength(50)
    // Given back once the client has it all.
    await expect.poll(() => budget.used).toBe(0)
  })

  test('an export takes its room before its text is built, once, for no less than its size', async () => {
    const taken: number[] = []
    const take = budget.take.bind(budget)
    budget.take = (bytes: number) => {
      taken.push(bytes)
      return take(bytes)
    }
    try {
      const sent = await fetch(`${origin}/__sandbox/export`)
      const length = (await sent.arrayBuffer()).byteLength
      expect(sent.status).toBe(200)
      // The estimate (more than the text: the text was not built yet), and nothing more.
      expect(taken).toHaveLength(1)
      expect(taken[0]).toBeGreaterThan(length)
      await expect.poll(() => budget.used).toBe(0)
    } finally {
      budget.take = take
    }
  })

  test('an import (a body of 1 KiB or more), refused before it is read', async () => {
    const data = await (await fetch(`${origin}/__sandbox/export`)).json()
    const post = () =>
      fetch(`${origin}/__sandbox/sessions`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ id: 'imported', from: data }),
      })
    expect(othersInFlight()).toBe(true)
    const busy = await post()
    expect(busy.status).toBe(503)
    // The body is discarded as it comes, and the connection kept for the next request.
    expect(busy.headers.get('connection')).toBe('keep-alive')
    expect((await busy.json()).message).toMatch(/large request bodies in flight/)
    expect(sandbox.sessions()).toEqual([])
    budget.give(8192)
    expect((await post()).status).toBe(201)
    expect(budget.used).toBe(0)
  })

  test('a client still sending a large body reads the 503, not EPIPE', async () => {
    expect(othersInFlight()).toBe(true)
    try {
      const { port } = new URL(origin)
      // 8 MiB, written as a slow client would while the server has answered already.
      const answer = await sendLarge(Number(port), 8 * 1024 * 1024)
      expect(answer.error).toBeUndefined()
      expect(answer.status).toBe(503)
      expect(answer.headers['retry-after']).toBe('1')
      expect(JSON.parse(answer.body)).toMatchObject({
        code: 'service_unavailable',
        status: 503,
      })
      // Nothing of it was held: the budget is the others' alone.
      expect(budget.used).toBe(8192)
    } finally {
      budget.give(8192)
    }
  })

  test('/v1 answers and small bodies never wait', async () => {
    expect(othersInFlight()).toBe(true)
    const headers = { authorization: 'Bearer sandbox-free-key' }
    // (Under 1 KiB here; a /v1 answer is at most 100 pets, far under the 1 MiB of a server.)
    expect((await fetch(`${origin}/v1/pets?limit=5`, { headers })).status).toBe(200)
    const created = await fetch(`${origin}/v1/pets`, {
      method: 'POST',
      headers: { ...headers, 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'Rex', categoryId: 1 }),
    })
    expect(created.status).toBe(201)
    budget.give(8192)
  })
})

/**
 * POSTs `size` bytes to `/__sandbox/sessions` with node:http, in 64 KiB writes that wait
 * for the socket to drain, as a client uploading a large import does; the answer, and
 * the error the request got, if any (EPIPE, ECONNRESET).
 */
function sendLarge(
  port: number,
  size: number,
): Promise<{
  status?: number
  headers: IncomingHttpHeaders
  body: string
  error?: string
}> {
  return new Promise((resolve) => {
    let error: string | undefined
    let response: { status?: number; headers: IncomingHttpHeaders; body: string } = {
      headers: {},
      body: '',
    }
    let done = 0
    const finish = () => {
      if (++done === 2) resolve({ ...response, ...(error ? { error } : {}) })
    }
    const request = httpRequest(
      {
        port,
        host: '127.0.0.1',
        method: 'POST',
        path: '/__sandbox/sessions',
        headers: { 'content-type': 'application/json', 'content-length': size },
      },
      (res) => {
        const chunks: Buffer[] = []
        res.on('data', (chunk: Buffer) => chunks.push(chunk))
        res.on('end', () => {
          response = {
            status: res.statusCode,
            headers: res.headers,
            body: Buffer.concat(chunks).toString(),
          }
          finish()
        })
        res.on('error', (failure) => {
          error ??= (failure as NodeJS.ErrnoException).code ?? failure.message
          finish()
        })
      },
    )
    request.on('error', (failure) => {
      error ??= (failure as NodeJS.ErrnoException).code ?? failure.message
      // No answer will come: count it as done.
      if (response.status === undefined) finish()
      finish()
    })
    const chunk = Buffer.alloc(64 * 1024, 0x20)
    let sent = 0
    const write = () => {
      while (sent < size) {
        sent += chunk.length
        if (!request.write(chunk)) return void request.once('drain', write)
      }
      request.end(finish)
    }
    write()
  })
}
