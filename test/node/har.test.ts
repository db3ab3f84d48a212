import { describe, expect, test } from 'vitest'
import { journalToHar } from '../../src/core/coach/har.js'
import type { JournalEntry } from '../../src/core/coach/journal.js'
import { SANDBOX_VERSION } from '../../src/core/common/version.js'
// The HAR 1.2 schema, a copy of har-schema 2.0.0 (test/har-schema/README.md).
import { validateHar } from '../har-schema/validate-har.js'

const origin = 'http://127.0.0.1:4010'

const created: JournalEntry = {
  id: 1,
  at: '2031-05-01T10:00:00.000Z',
  method: 'POST',
  path: '/v1/pets?dry=1&tag=a%20b',
  status: 201,
  durationMs: 3.5,
  scenario: 'default',
  key: 'sandbox-free-key',
  plan: 'free',
  operation: 'createPet',
  rateLimit: { limit: 10, remaining: 9, reset: 1935482460 },
  headers: { 'content-type': 'application/json', 'x-sandbox-session': 'alice' },
  body: '{"name":"Rêx","categoryId":1}',
  session: 'alice',
}

const limited: JournalEntry = {
  id: 2,
  at: '2031-05-01T10:00:01.000Z',
  method: 'GET',
  path: '/v1/pets',
  status: 429,
  durationMs: 1,
  scenario: 'default',
  key: 'sandbox-free-key',
  operation: 'listPets',
  code: 'rate_limit_exceeded',
  message: 'Too many requests.',
  rateLimit: { limit: 10, remaining: 0, reset: 1935482460, retryAfter: 59 },
  ignoredRetryAfter: true,
}

describe('journalToHar', () => {
  test('is a HAR 1.2 log of petstore-sandbox, valid against the HAR schema', () => {
    const har = journalToHar([created, limited], { origin })
    expect(validateHar(har)).toEqual([])
    expect(har.log.version).toBe('1.2')
    expect(har.log.creator).toEqual({
      name: 'petstore-sandbox',
      version: SANDBOX_VERSION,
    })
    expect(har.log.entries.map((entry) => entry.startedDateTime)).toEqual([
      created.at,
      limited.at,
    ])
    expect(har.log.comment).toBeUndefined()
  })

  test('gives the request as the journal kept it: URL on the origin, query, headers, body', () => {
    const [entry] = journalToHar([created], { origin }).log.entries
    expect(entry?.request).toEqual({
      method: 'POST',
      url: 'http://127.0.0.1:4010/v1/pets?dry=1&tag=a%20b',
      httpVersion: 'HTTP/1.1',
      cookies: [],
      headers: [
        { name: 'content-type', value: 'application/json' },
        { name: 'x-sandbox-session', value: 'alice' },
      ],
      queryString: [
        { name: 'dry', value: '1' },
        { name: 'tag', value: 'a b' },
      ],
      postData: { mimeType: 'application/json', text: '{"name":"Rêx","categoryId":1}' },
      headersSize: -1,
      // UTF-8 bytes: ê is two.
      bodySize: 30,
    })
    expect(entry?.time).toBe(3.5)
    expect(entry?.timings).toEqual({ send: 0, wait: 3.5, receive: 0 })
    expect(entry?.cache).toEqual({})
    expect(entry?._sandbox).toMatchObject({
      id: 1,
      session: 'alice',
      operation: 'createPet',
    })
  })

  test('gives the response: status, rate-limit headers, and the Error body of an error', () => {
    const [ok, error] = journalToHar([created, limited], { origin }).log.entries
    expect(ok?.response).toMatchObject({
      status: 201,
      statusText: 'Created',
      content: { size: 0, mimeType: 'application/json' },
      redirectURL: '',
      headersSize: -1,
      bodySize: -1,
    })
    expect(ok?.response.content.text).toBeUndefined()
    expect(error?.response.statusText).toBe('Too Many Requests')
    expect(error?.response.headers).toEqual([
      { name: 'content-type', value: 'application/json' },
      { name: 'x-sandbox-request-id', value: '2' },
      { name: 'x-ratelimit-limit', value: '10' },
      { name: 'x-ratelimit-remaining', value: '0' },
      { name: 'x-ratelimit-reset', value: '1935482460' },
      { name: 'retry-after', value: '59' },
    ])
    const text =
      '{"code":"rate_limit_exceeded","message":"Too many requests.","status":429}'
    expect(error?.response.content).toEqual({
      size: text.length,
      mimeType: 'application/json',
      text,
    })
  })

  test('keeps paths that are not plain paths on the origin, and says when bodies were cut', () => {
    const odd = (path: string, id: number): JournalEntry => ({
      ...limited,
      id,
      path,
      status: 400,
      code: 'invalid_path',
    })
    const cut: JournalEntry = { ...created, id: 9, body: '{"na', bodyTruncated: true }
    const { code: _code, message: _message, rateLimit: _limit, ...answered } = limited
    const override: JournalEntry = { ...answered, id: 10, status: 418, override: true }
    const har = journalToHar(
      [
        odd('//other.example/x', 3),
        odd('*', 4),
        odd(`/v1/${'a'.repeat(30)}…`, 5),
        cut,
        override,
      ],
      { origin: `${origin}/`, complete: false },
    )
    expect(validateHar(har)).toEqual([])
    expect(har.log.entries.map((entry) => new URL(entry.request.url).origin)).toEqual(
      Array(5).fill(origin),
    )
    expect(har.log.entries[0]?.request.url).toBe(`${origin}//other.example/x`)
    expect(har.log.entries[1]?.request.url).toBe(`${origin}/*`)
    expect(har.log.entries[3]?.request.bodySize).toBe(-1)
    expect(har.log.entries[4]?.response).toMatchObject({
      statusText: '',
      headers: [],
      content: { size: 0, mimeType: '' },
    })
    expect(har.log.comment).toMatch(/dropped older requests or cut bodies/)
  })

  test('a dropped request has no answer: status 0 and the reason, as dev tools write a failed request', () => {
    const dropped: JournalEntry = {
      id: 7,
      at: '2031-05-01T10:00:02.000Z',
      method: 'GET',
      path: '/v1/pets',
      status: 0,
      durationMs: 0,
      scenario: 'flaky-network',
      dropped: true,
    }
    const har = journalToHar([dropped], { origin })
    expect(validateHar(har)).toEqual([])
    expect(har.log.entries[0]?.response).toMatchObject({
      status: 0,
      statusText: '',
      headers: [],
      content: { size: 0, mimeType: '' },
      _error: "Dropped by the scenario's faults: the client got no answer.",
    })
    expect(har.log.entries[0]?._sandbox.dropped).toBe(true)
  })

  test('an empty journal is an empty, valid log', () => {
    const har = journalToHar([], { origin })
    expect(har.log.entries).toEqual([])
    expect(validateHar(har)).toEqual([])
  })

  test('the schema refuses what is not HAR (the check checks)', () => {
    const har = journalToHar([created], { origin }) as unknown as {
      log: { entries: Array<{ request: Record<string, unknown> }> }
    }
    delete har.log.entries[0]?.request.headers
    expect(validateHar(har).map((error) => error.message)).toContain(
      "must have required property 'headers'",
    )
  })
})
