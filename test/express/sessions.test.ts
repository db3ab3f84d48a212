import { afterAll, beforeAll, expect, test } from 'vitest'
import { defineSessionsSuite } from '../contract/sessions-suite.js'
import { send } from '../security/http.js'
import { startApp } from './start-app.js'

defineSessionsSuite('standalone server (petstore-sandbox/express)', async (options) => {
  const { origin, close } = await startApp({ seed: 42, ...options })
  return { origin, close }
})

// Sessions and the page that asks (issue 21): a page of another site may use the
// sessions that exist, but a flood of its new ones would evict the developer's.
let app: Awaited<ReturnType<typeof startApp>>
beforeAll(async () => {
  app = await startApp({
    seed: 42,
    count: 5,
    allowedOrigins: ['https://app.example.com'],
  })
})
afterAll(() => app.close())

const listed = async () => {
  const reply = await send(app.port, 'GET', '/__sandbox/sessions')
  return (JSON.parse(reply.body) as { sessions: Array<{ id: string }> }).sessions.map(
    (session) => session.id,
  )
}

test('a page of an untrusted origin cannot make sessions, by header or session key; trusted ones and no Origin can', async () => {
  const untrusted = 'https://pages.example.net'
  for (let index = 0; index < 30; index++) {
    const header = await send(app.port, 'GET', '/v1/pets', {
      authorization: 'Bearer sandbox-free-key',
      'x-sandbox-session': `flood-${index}`,
      origin: untrusted,
    })
    expect(header.status).toBe(403)
    expect(JSON.parse(header.body)).toMatchObject({ code: 'forbidden_origin' })
    const key = await send(app.port, 'GET', '/v1/pets', {
      authorization: `Bearer sandbox-enterprise-key.flood-key-${index}`,
      origin: untrusted,
    })
    expect(key.status).toBe(403)
  }
  expect(await listed()).toEqual([])

  // Made without an Origin (a test, curl) and by a trusted page: then the page may use them.
  expect(
    (
      await send(app.port, 'GET', '/v1/pets', {
        authorization: 'Bearer sandbox-free-key.ci',
      })
    ).headers['x-sandbox-session-created'],
  ).toBe('true')
  const trusted = await send(app.port, 'GET', '/v1/pets', {
    authorization: 'Bearer sandbox-free-key.app',
    origin: 'https://app.example.com',
  })
  expect(trusted.headers['x-sandbox-session-created']).toBe('true')
  for (const id of ['ci', 'app']) {
    const used = await send(app.port, 'GET', '/v1/pets', {
      authorization: `Bearer sandbox-free-key.${id}`,
      origin: untrusted,
    })
    expect(used.status).toBe(200)
  }
  expect((await listed()).sort()).toEqual(['app', 'ci'])
})
