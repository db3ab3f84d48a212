import { afterAll, beforeAll, expect, test } from 'vitest'
import { startApp } from './start-app.js'

// Control requests are not journalled (CONTRACT "Request ids"), refused ones neither: an
// untrusted page's 403, a body that is not JSON (415), a Host that is not one. Before,
// they landed in the default session's journal and its report card as the client's 400s.
let app: Awaited<ReturnType<typeof startApp>>
beforeAll(async () => {
  app = await startApp({ seed: 42 })
})
afterAll(() => app?.close())

test('refused control requests are answered with an id, and neither journalled nor graded', async () => {
  const refusals = [
    await fetch(`${app.origin}/__sandbox/report`, {
      headers: { origin: 'https://evil.example' },
    }),
    await fetch(`${app.origin}/__sandbox/scenario`, {
      method: 'PUT',
      headers: { 'content-type': 'text/plain' },
      body: 'rate-limited',
    }),
  ]
  expect(refusals.map((response) => response.status)).toEqual([403, 415])
  for (const response of refusals) {
    expect(Number(response.headers.get('x-sandbox-request-id'))).toBeGreaterThan(0)
  }
  const { requests } = await (await fetch(`${app.origin}/__sandbox/requests`)).json()
  expect(requests).toEqual([])
  const report = await (await fetch(`${app.origin}/__sandbox/report`)).json()
  expect(report).toMatchObject({ requests: 0, findings: [] })
})
