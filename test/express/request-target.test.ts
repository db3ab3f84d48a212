import type { Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterAll, beforeAll, expect, test } from 'vitest'
import { createSandboxApp, listenSandboxApp } from 'petstore-sandbox/express'
import { rawRequest } from '../hostile/raw-http.js'

let server: Server
let port: number

beforeAll(async () => {
  server = await listenSandboxApp(createSandboxApp({ seed: 42 }), {
    port: 0,
    host: '127.0.0.1',
  })
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
