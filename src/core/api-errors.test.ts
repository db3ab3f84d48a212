import { readFileSync } from 'node:fs'
import { expect, test } from 'vitest'
import {
  API_ERROR_CODES,
  API_ERROR_STATUS,
  errorReply,
  fail,
  forcedFailure,
  toResponse,
} from './api-errors.js'

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

test("a scenario's forced failure keeps its own status and code", () => {
  const reply = errorReply(forcedFailure(503, 'service_unavailable', 'Down.'))
  expect(reply.status).toBe(503)
  expect(JSON.parse(reply.text)).toEqual({
    code: 'service_unavailable',
    message: 'Down.',
    status: 503,
  })
})

test("the README's error table lists exactly the package's codes, each with its status", () => {
  const readme = readFileSync(new URL('../../README.md', import.meta.url), 'utf8')
  const section = readme.slice(readme.indexOf('### Error codes'))
  const table = section.slice(0, section.indexOf('\n\n', section.indexOf('| status')))
  const rows = [...table.matchAll(/^\|\s*(\d{3})\s*\|\s*`([a-z_]+)`/gm)].map(
    ([, status, code]) => [code as string, Number(status)] as const,
  )
  expect(Object.fromEntries(rows)).toEqual(API_ERROR_STATUS)
  expect(rows.map(([code]) => code).sort()).toEqual([...API_ERROR_CODES].sort())
})
