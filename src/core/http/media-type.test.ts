import { describe, expect, test } from 'vitest'
import { bodyTypeRefused, CONTROL_BODY, isJsonMediaType } from './media-type.js'

describe('isJsonMediaType', () => {
  test.each([
    'application/json',
    'APPLICATION/JSON',
    'application/json; charset=utf-8',
    ' application/json ;charset=UTF-8',
    'application/json;',
  ])('%j is JSON', (type) => expect(isJsonMediaType(type)).toBe(true))

  test.each([
    null,
    undefined,
    '',
    'application/merge-patch+json',
    'application/vnd.api+json',
    'text/json',
    'application/jsonp',
    'application/json, text/plain',
    'text/plain; type=application/json',
  ])('%j is not', (type) => expect(isJsonMediaType(type)).toBe(false))
})

describe('bodyTypeRefused', () => {
  test('no body: any type (or none) is fine', () => {
    expect(bodyTypeRefused('text/plain', false)).toBeUndefined()
    expect(bodyTypeRefused(null, false)).toBeUndefined()
  })

  test('a +json type: 415 naming what was sent, why, and what to send', () => {
    const failure = bodyTypeRefused('application/merge-patch+json', true)
    expect(failure).toMatchObject({ code: 'unsupported_media_type', status: 415 })
    expect(failure?.message).toBe(
      'The body must be JSON with "Content-Type: application/json", got "application/merge-patch+json": the API takes only application/json, not other JSON types (+json). Send the JSON with "Content-Type: application/json" (parameters such as "; charset=utf-8" are fine).',
    )
  })

  test('a missing header says so; a control body says whose it is', () => {
    expect(bodyTypeRefused(null, true)?.message).toContain(
      'but the request has no Content-Type',
    )
    expect(bodyTypeRefused('text/plain', true, CONTROL_BODY)?.message).toMatch(
      /^A control request's body must be JSON with "Content-Type: application\/json", got "text\/plain"\. /,
    )
  })
})
