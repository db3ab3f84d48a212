import { expect, test } from 'vitest'
import { errorReply, responseText, toResponse, writesReplyText } from './responses.js'

const reply = () =>
  errorReply(404, 'not_found', 'No pet with id 9.', { 'x-ratelimit-limit': '60' })

test('a response carries its body, and the same text for a server adapter', async () => {
  const response = toResponse(reply(), new Request('http://127.0.0.1/v1/pets/9'))
  expect(response.status).toBe(404)
  expect(response.headers.get('content-type')).toBe('application/json')
  expect(response.headers.get('x-ratelimit-limit')).toBe('60')
  const text = responseText(response)
  expect(JSON.parse(text ?? '')).toEqual({
    code: 'not_found',
    message: 'No pet with id 9.',
    status: 404,
  })
  expect(await response.text()).toBe(text)
})

test('the response to a request whose adapter writes the text has no body stream', () => {
  const request = new Request('http://127.0.0.1/v1/pets/9')
  writesReplyText(request)
  const response = toResponse(reply(), request)
  expect(response.body).toBeNull()
  expect(response.status).toBe(404)
  expect(response.headers.get('x-ratelimit-limit')).toBe('60')
  expect(responseText(response)).toBe(reply().text)
  // Only the marked request: another one still gets its body.
  expect(toResponse(reply(), new Request(request.url)).body).not.toBeNull()
})
