import { Ajv2020 } from 'ajv/dist/2020.js'
import { expect, test } from 'vitest'
import { createOpenApiDocument } from '../../src/openapi/create-openapi-document.js'
import { openApiProblems } from './openapi.js'

const rateHeaders = () =>
  new Headers({
    'x-ratelimit-limit': '60',
    'x-ratelimit-remaining': '59',
    'x-ratelimit-reset': '1800000000',
  })

// The contract suite trusts this checker, so it must catch what it is there to catch.
test('the OpenAPI checker accepts a documented Pet and rejects wrong bodies, headers and statuses', () => {
  const pet = { id: 1, name: 'Rex', categoryId: 2, status: 'sold' }
  expect(openApiProblems('GET', '/v1/pets', 200, rateHeaders(), [pet])).toEqual([])
  expect(
    openApiProblems('GET', '/v1/pets', 200, rateHeaders(), [{ ...pet, id: 'one' }]),
  ).not.toEqual([])
  expect(
    openApiProblems('GET', '/v1/pets', 200, rateHeaders(), { pets: [pet] }),
  ).not.toEqual([])
  expect(openApiProblems('GET', '/v1/pets', 200, new Headers(), [pet])).toContain(
    'header X-RateLimit-Limit is missing',
  )
  expect(openApiProblems('GET', '/v1/pets/1', 200, rateHeaders(), pet).join()).toContain(
    'Deprecation',
  )
  expect(
    openApiProblems('POST', '/v1/pets', 201, rateHeaders(), {
      ...pet,
      status: 'adopted',
    }),
  ).not.toEqual([])
  const error = { code: 'not_found', message: 'No pet with id 9.', status: 404 }
  expect(
    openApiProblems('GET', '/v1/store/orders', 501, rateHeaders(), {
      ...error,
      status: 501,
      code: 'not_implemented',
    }),
  ).toEqual([])
  expect(
    openApiProblems('GET', '/v1/store/orders', 501, rateHeaders(), {
      message: 'x',
      status: 501,
    }),
  ).not.toEqual([])
  expect(
    openApiProblems('GET', '/__sandbox/clock', 200, new Headers(), {
      now: 'later',
      frozen: true,
    }),
  ).not.toEqual([])
})

test('the document lets a production Pet carry a new field; the checker holds the sandbox to none', () => {
  const document = createOpenApiDocument()
  const ajv = new Ajv2020({ strict: false })
  ajv.addSchema(document, 'openapi')
  const validate = ajv.getSchema('openapi#/components/schemas/Pet')
  const pet = { id: 1, name: 'Rex', categoryId: 2, adoptedAt: '2031-01-01' }
  expect(validate?.(pet)).toBe(true)
  expect(openApiProblems('GET', '/v1/pets/1', 200, rateHeaders(), pet)).not.toEqual([])
})

test('the checker holds unknown paths to the documented 404 and wrong methods to the 405 with Allow', () => {
  const error = (status: number, code: string) => ({ code, message: 'x', status })
  expect(
    openApiProblems('GET', '/v1/animals', 404, rateHeaders(), error(404, 'not_found')),
  ).toEqual([])
  expect(
    openApiProblems('GET', '/v1/animals', 404, new Headers(), error(404, 'not_found')),
  ).toContain('header X-RateLimit-Limit is missing')
  const allow = rateHeaders()
  allow.set('allow', 'GET, HEAD, POST')
  expect(
    openApiProblems('DELETE', '/v1/pets', 405, allow, error(405, 'method_not_allowed')),
  ).toEqual([])
  expect(
    openApiProblems(
      'DELETE',
      '/v1/pets',
      405,
      rateHeaders(),
      error(405, 'method_not_allowed'),
    ),
  ).toContain('header Allow is missing')
  expect(
    openApiProblems('POST', '/__sandbox', 405, new Headers({ allow: 'GET' }), {
      ...error(405, 'method_not_allowed'),
      extra: true,
    }),
  ).not.toEqual([])
})

test('/v1 answers are checked against the API document, /__sandbox answers against the control document', () => {
  const clock = { now: '2026-11-23T13:35:00.000Z', frozen: false }
  // The control document's operation, its schema (ClockState) and its 404 (no rate headers).
  expect(openApiProblems('GET', '/__sandbox/clock', 200, new Headers(), clock)).toEqual(
    [],
  )
  const notFound = { code: 'not_found', message: 'x', status: 404 }
  expect(
    openApiProblems('GET', '/__sandbox/nothing', 404, new Headers(), notFound),
  ).toEqual([])
  // The API document has no control paths: under /v1 the path is an unknown one, held
  // to the API's 404, which carries the rate-limit headers.
  expect(
    openApiProblems('GET', '/v1/__sandbox/clock', 200, new Headers(), clock),
  ).toEqual([])
  expect(
    openApiProblems('GET', '/v1/__sandbox/clock', 404, new Headers(), notFound),
  ).toContain('header X-RateLimit-Limit is missing')
  // And a Pet is not a control answer.
  expect(
    openApiProblems('GET', '/__sandbox/clock', 200, new Headers(), {
      id: 1,
      name: 'Rex',
      categoryId: 2,
    }),
  ).not.toEqual([])
})
