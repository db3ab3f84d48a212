import { readFileSync } from 'node:fs'
import { expect, test } from 'vitest'
import {
  API_ERROR_CODES,
  API_ERROR_STATUS,
  errorReply,
  fail,
  forcedFailure,
} from './api-errors.js'
import { jsonReply, toResponse } from './reply.js'

test('a failure becomes the Error body, its status from the one list, with the headers of where it is answered', async () => {
  const reply = errorReply(
    fail('method_not_allowed', 'PATCH is not allowed on /v1/pets.', {
      allow: 'GET, POST',
    }),
    { 'x-ratelimit-limit': '60' },
  )
  expect(reply.status).toBe(405)
  expect(reply.headers).toEqual({
    'content-type': 'application/json',
    'x-ratelimit-limit': '60',
    allow: 'GET, POST',
  })
  expect(JSON.parse(reply.text)).toEqual({
    code: 'method_not_allowed',
    message: 'PATCH is not allowed on /v1/pets.',
    status: 405,
  })
  const response = toResponse(reply)
  expect(response.status).toBe(405)
  expect(response.headers.get('allow')).toBe('GET, POST')
  expect(await response.text()).toBe(reply.text)
})

test('the Response to a HEAD has the status and headers and no body', async () => {
  const reply = jsonReply(200, [{ id: 1 }], { 'x-ratelimit-limit': '60' })
  const head = toResponse(reply, new Request('http://x/v1/pets', { method: 'HEAD' }))
  expect(head.status).toBe(200)
  expect(head.body).toBeNull()
  expect(head.headers.get('x-ratelimit-limit')).toBe('60')
  expect(head.headers.get('content-type')).toBe('application/json')
  const get = toResponse(reply, new Request('http://x/v1/pets'))
  expect(await get.text()).toBe('[{"id":1}]')
})

test("a scenario's forced failure keeps its own status and code", () => {
  const reply = errorReply(forcedFailure(503, 'service_unavailable', 'Down.'))
  expect(reply.status).toBe(503)
  expect(JSON.parse(reply.text)).toEqual({
    code: 'service_unavailable',
    message: 'Down.',
    status: 503,
  })
})

test("docs/errors.md's error table lists exactly the package's codes, each with its status", () => {
  const page = readFileSync(new URL('../../../docs/errors.md', import.meta.url), 'utf8')
  const section = page.slice(page.indexOf('## Error codes'))
  const table = section.slice(0, section.indexOf('\n\n', section.indexOf('| status')))
  const rows = [...table.matchAll(/^\|\s*(\d{3})\s*\|\s*`([a-z_]+)`/gm)].map(
    ([, status, code]) => [code as string, Number(status)] as const,
  )
  expect(Object.fromEntries(rows)).toEqual(API_ERROR_STATUS)
  expect(rows.map(([code]) => code).sort()).toEqual([...API_ERROR_CODES].sort())
  // Each code says why it was sent and what to change: status, code, cause, fix.
  const cells = [...table.matchAll(/^\|\s*\d{3}\s*\|.*$/gm)].map(([row]) =>
    row
      .split('|')
      .slice(1, -1)
      .map((cell) => cell.trim()),
  )
  expect(
    cells.filter((row) => row.length !== 4 || row.some((cell) => cell === '')),
  ).toEqual([])
})
