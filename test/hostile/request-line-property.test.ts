import fc from 'fast-check'
import { afterAll, beforeAll, expect, test } from 'vitest'
import type { Pet } from 'petstore-sandbox/express'
import { startApp } from '../express/start-app.js'
import {
  NODE_METHODS,
  PROPERTY_SEED,
  requestLine,
  targetFor,
  toRequestBytes,
  type RequestLineSpec,
} from './arbitraries.js'
import { rawRequest } from './raw-http.js'

// What fetch cannot send, over a raw socket: any method token (RFC 9110), the asterisk
// and absolute forms of the request target, malformed escapes in any segment or
// parameter. CONTRACT "Odd requests": never a 500, always the Error body, and a target
// that is not a path of this server, or that holds a malformed escape, is 400
// invalid_path before anything else looks at it.

let app: Awaited<ReturnType<typeof startApp>>
const errors: unknown[] = []
beforeAll(async () => {
  app = await startApp({
    seed: 3,
    count: 5,
    clock: { now: '2027-01-01T00:00:00Z', frozen: true },
    onError: (error) => errors.push(error),
  })
})
afterAll(() => app?.close())

const pets = async () => {
  const response = await fetch(`${app.origin}/v1/pets?limit=100`, {
    headers: { authorization: 'Bearer sandbox-enterprise-key' },
  })
  expect(response.status).toBe(200)
  return (await response.json()) as Pet[]
}

/** What the contract fixes for a request line: a status and code, or only "no 5xx". */
function expected(spec: RequestLineSpec, host: string): string | undefined {
  // Node's parser refuses a method it does not know, and CONNECT asks for a tunnel.
  if (!NODE_METHODS.includes(spec.method) || spec.method === 'CONNECT')
    return '405 method_not_allowed'
  let target = targetFor(spec, host)
  const own = new RegExp(`^https?://${host.replace(/[.]/g, '\\.')}(?=[/?]|$)`, 'i')
  if (own.test(target)) target = target.replace(own, '') || '/'
  if (!target.startsWith('/')) return '400 invalid_path'
  try {
    decodeURIComponent(target)
  } catch {
    return '400 invalid_path'
  }
  return undefined
}

test('random request lines never get a 500, and odd targets are 400 invalid_path', async () => {
  const host = `127.0.0.1:${app.port}`
  const before = await pets()
  await fc.assert(
    fc.asyncProperty(
      fc.array(requestLine, { minLength: 1, maxLength: 8 }),
      async (specs) => {
        for (const spec of specs) {
          const bytes = toRequestBytes(spec, host)
          const reply = await rawRequest(app.port, [bytes])
          const label = `${bytes.split('\r\n', 1)[0]} -> ${reply.status} ${reply.body.slice(0, 200)}`
          expect(reply.status, label).toBeDefined()
          const status = reply.status as number
          const notModelled = status === 501 && spec.target.includes('/v1/store/orders')
          if (!notModelled) expect(status, label).toBeLessThan(500)
          const fixed = expected(spec, host)
          if (fixed) expect(String(status), label).toBe(fixed.split(' ')[0])
          if (spec.method === 'HEAD') {
            expect(reply.body, label).toBe('')
          } else if (status >= 400) {
            expect(reply.headers['content-type'], label).toBe('application/json')
            const error = JSON.parse(reply.body)
            expect(Object.keys(error).sort(), label).toEqual([
              'code',
              'message',
              'status',
            ])
            expect(error.status, label).toBe(status)
            expect(error.message, label).not.toMatch(/\n\s+at /)
            if (fixed) expect(`${status} ${error.code}`, label).toBe(fixed)
          }
          if (status === 405) expect(reply.headers.allow, label).toMatch(/^[A-Z, ]+$/)
        }
      },
    ),
    { numRuns: 150, seed: PROPERTY_SEED },
  )
  // Nothing reached the error handler, and the data is as it was.
  expect(errors).toEqual([])
  expect(await pets()).toEqual(before)
})
