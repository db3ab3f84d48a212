import { afterAll, beforeAll, expect, test } from 'vitest'
import { createOpenApiDocument } from '../../src/openapi/create-openapi-document.js'
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
  expect(document.paths['/__sandbox'].servers[0].url).toBe(app.origin)
})

test('/openapi.json asked for as localhost names localhost', async () => {
  const response = await fetch(`http://localhost:${app.port}/openapi.json`).catch(
    () => null,
  )
  // Some machines resolve localhost to ::1 only, where the app does not listen.
  if (!response) return
  expect((await response.json()).servers[0].url).toBe(`http://localhost:${app.port}/v1`)
})
