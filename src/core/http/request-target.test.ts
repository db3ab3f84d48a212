import { describe, expect, test } from 'vitest'
import { Failure } from './api-errors.js'
import { checkTarget, decodeParam, targetPath } from './request-target.js'
import { allowedMethods, createRouter } from './router.js'
import { API_ROUTES } from '../api/routes.js'
import { CONTROL_ROUTES } from '../control/routes.js'

describe('checkTarget', () => {
  test.each([
    '/v1/pets',
    '/v1/pets?limit=2&status=sold',
    '/v1/pets/%31',
    '/__sandbox/sessions/caf%C3%A9',
    '/v1/pets?name=%F0%9F%90%B6',
    '/v1/pets?q=100%25',
    '/',
  ])('%s is a path', (target) => {
    expect(checkTarget(target)).toBeUndefined()
  })

  test.each([
    ['*', /asterisk form/],
    ['http://evil.example/v1/pets', /names the host "evil.example".*not a proxy/],
    ['pets', /not a path/],
    ['/v1/../__sandbox/reset', /segment/],
    ['/v1/%ZZ', /The path "\/v1\/%ZZ" has a malformed percent-escape/],
    ['/__sandbox/sessions/%E0%A4%A', /The path .* malformed percent-escape/],
    ['/__sandbox/sessions/%E0%A4', /malformed percent-escape/],
    ['/v1/pets/%', /malformed percent-escape/],
    ['/v1/pets?limit=%ZZ', /The query "\?limit=%ZZ" has a malformed percent-escape/],
    ['/v1/pets?%ED%A0%80=1', /The query/],
  ])('%s is 400 invalid_path', (target, message) => {
    const failure = checkTarget(target)
    expect(failure).toBeInstanceOf(Failure)
    expect(failure).toMatchObject({ code: 'invalid_path', status: 400 })
    expect(failure?.message).toMatch(message)
  })
})

test('targetPath cuts the scheme and authority of the absolute form as text', () => {
  expect(targetPath('/v1/pets?limit=1')).toBe('/v1/pets')
  expect(targetPath('http://evil.example/v1/../pets?x')).toBe('/v1/../pets')
  expect(targetPath('https://evil.example')).toBe('/')
  expect(targetPath('*')).toBe('*')
})

test('decodeParam decodes, or answers 400 invalid_path instead of throwing', () => {
  expect(decodeParam('id', 'a%2Db')).toBe('a-b')
  expect(decodeParam('id', '%ZZ')).toMatchObject({ code: 'invalid_path' })
})

describe('the router answers HEAD with the GET route', () => {
  const api = createRouter(API_ROUTES)
  const control = createRouter(CONTROL_ROUTES)

  test('HEAD routes to GET, and Allow lists HEAD right after GET', () => {
    expect(api('HEAD', '/pets')).toMatchObject({
      kind: 'route',
      route: { operationId: 'listPets' },
    })
    expect(api('HEAD', '/pets/7')).toMatchObject({
      kind: 'route',
      route: { operationId: 'getPet' },
      params: { petId: '7' },
    })
    expect(api('TRACE', '/pets')).toEqual({
      kind: 'method-not-allowed',
      allow: 'GET, HEAD, POST',
    })
    expect(control('HEAD', '/reset')).toEqual({
      kind: 'method-not-allowed',
      allow: 'POST',
    })
    expect(control('HEAD', '/sessions/x')).toEqual({
      kind: 'method-not-allowed',
      allow: 'DELETE',
    })
  })

  test('allowedMethods lists each method once', () => {
    expect(allowedMethods([...API_ROUTES, ...CONTROL_ROUTES])).toBe(
      'GET, HEAD, POST, PUT, DELETE',
    )
  })
})
