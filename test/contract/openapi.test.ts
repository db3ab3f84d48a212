import { expect, test } from 'vitest'
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
