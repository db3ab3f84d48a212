import type { AddressInfo } from 'node:net'
import express from 'express'
import { createSandboxApp } from 'petstore-sandbox/express'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import {
  createControlOpenApiDocument,
  createOpenApiDocument,
} from '../../src/openapi/create-openapi-document.js'
import { startApp } from './start-app.js'

let app: Awaited<ReturnType<typeof startApp>>
beforeAll(async () => {
  app = await startApp()
})
afterAll(async () => {
  await app?.close()
})

test('/openapi.json names the server it was fetched from, first, then production and staging', async () => {
  const response = await fetch(`${app.origin}/openapi.json`)
  expect(response.status).toBe(200)
  expect(response.headers.get('content-type')).toBe('application/json')
  const document = await response.json()
  expect(document).toEqual(createOpenApiDocument({ serverUrl: app.origin }))
  expect(document.servers.map((server: { url: string }) => server.url)).toEqual([
    `${app.origin}/v1`,
    '{base_url}',
    '{staging_base_url}',
  ])
  expect(Object.keys(document.paths).some((path) => path.startsWith('/__sandbox'))).toBe(
    false,
  )
})

test('/openapi.json asked for as localhost names localhost', async () => {
  const response = await fetch(`http://localhost:${app.port}/openapi.json`).catch(
    () => null,
  )
  // Some machines resolve localhost to ::1 only, where the app does not listen.
  if (!response) return
  expect((await response.json()).servers[0].url).toBe(`http://localhost:${app.port}/v1`)
})

describe("/__sandbox/openapi.json: the control API's document", () => {
  test('names the server root it was fetched from as its one server', async () => {
    const response = await fetch(`${app.origin}/__sandbox/openapi.json`)
    expect(response.status).toBe(200)
    expect(response.headers.get('content-type')).toBe('application/json')
    const document = await response.json()
    expect(document).toEqual(createControlOpenApiDocument({ serverUrl: app.origin }))
    expect(document.servers.map((server: { url: string }) => server.url)).toEqual([
      app.origin,
    ])
    expect(Object.keys(document.paths)).toContain('/__sandbox/reset')
    // A client generated from it, given that server, calls the control API itself.
    const reset = new URL(`${document.servers[0].url}/__sandbox/reset`)
    expect((await fetch(reset, { method: 'POST' })).status).toBe(200)
  })

  test('HEAD answers as GET without a body; other methods are 405 with Allow: GET, HEAD', async () => {
    const head = await fetch(`${app.origin}/__sandbox/openapi.json`, { method: 'HEAD' })
    expect(head.status).toBe(200)
    expect(await head.text()).toBe('')
    const post = await fetch(`${app.origin}/__sandbox/openapi.json`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{}',
    })
    expect(post.status).toBe(405)
    expect(post.headers.get('allow')).toBe('GET, HEAD')
    expect((await post.json()).code).toBe('method_not_allowed')
  })

  test('is public like /openapi.json: no control token, any origin may read it; the rest of /__sandbox stays locked', async () => {
    const locked = await startApp({ controlToken: 'a-control-token' })
    try {
      const origin = { origin: 'https://elsewhere.example' }
      const response = await fetch(`${locked.origin}/__sandbox/openapi.json`, {
        headers: origin,
      })
      expect(response.status).toBe(200)
      expect(response.headers.get('access-control-allow-origin')).toBe('*')
      expect((await response.json()).servers[0].url).toBe(locked.origin)
      // Only that exact path: the state, and the path in another case, still need it.
      for (const path of ['/__sandbox', '/__SANDBOX/openapi.json']) {
        const refused = await fetch(`${locked.origin}${path}`)
        expect(refused.status, path).toBe(401)
        expect((await refused.json()).code).toBe('control_token_required')
      }
      const untrusted = await fetch(`${locked.origin}/__sandbox`, {
        headers: { ...origin, 'x-sandbox-control-token': 'a-control-token' },
      })
      expect(untrusted.status).toBe(403)
    } finally {
      await locked.close()
    }
  })

  test('mounted under a path, both documents name it', async () => {
    const outer = express()
    outer.use('/mock', createSandboxApp())
    const server = outer.listen(0, '127.0.0.1')
    await new Promise((resolve) => server.once('listening', resolve))
    try {
      const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
      const control = await (await fetch(`${origin}/mock/__sandbox/openapi.json`)).json()
      expect(control.servers[0].url).toBe(`${origin}/mock`)
      const api = await (await fetch(`${origin}/mock/openapi.json`)).json()
      expect(api.servers[0].url).toBe(`${origin}/mock/v1`)
      expect(api).toEqual(createOpenApiDocument({ serverUrl: `${origin}/mock` }))
    } finally {
      server.closeAllConnections()
      await new Promise((resolve) => server.close(resolve))
    }
  })
})
