import { getResponse, http, type HttpHandler } from 'msw'
import { expect, test } from 'vitest'
import { createSandbox } from './sandbox.js'

const URLS = [
  'http://127.0.0.1:4010/v1/pets?limit=20',
  'http://127.0.0.1:4010/v1/pets/7',
  'http://127.0.0.1:4010/v1',
  'http://127.0.0.1:4010/v1?limit=5',
  'http://127.0.0.1:4010/v1pets',
  'http://127.0.0.1:4010/mock/v1/pets',
  'https://api.example.com/v1/pets#top',
  'https://api.example.com/mock/v1/pets/3?x=1',
  'https://api.example.com/__sandbox/clock',
  'https://other.example.com/v1/pets',
]

/** What msw's own `http.all` makes of a request, next to what a sandbox handler makes. */
async function parseBoth(handler: HttpHandler, url: string, method = 'GET') {
  const twin = http.all(handler.info.path, () => undefined)
  const request = () => new Request(url, { method, headers: { cookie: 'session=abc' } })
  const ours = await handler.parse({ request: request() })
  const msw = await twin.parse({ request: request() })
  return { ours, msw }
}

test.each([
  ['any origin', {}],
  ['one origin and a path', { baseUrl: 'https://api.example.com/mock' }],
])(
  'the handlers match every URL as http.all would, without reading cookies (%s)',
  async (_name, options) => {
    const sandbox = createSandbox({ seed: 42, ...options })
    for (const handler of sandbox.handlers) {
      for (const url of URLS) {
        const { ours, msw } = await parseBoth(handler, url)
        expect(ours.match, `${handler.info.header} ${url}`).toEqual(msw.match)
        expect(msw.cookies).toEqual({ session: 'abc' })
        expect(ours.cookies).toEqual({})
      }
    }
  },
)

test('a request with cookies is answered like one without', async () => {
  const sandbox = createSandbox({ seed: 42 })
  const ask = (headers: Record<string, string>) =>
    getResponse(
      sandbox.handlers,
      new Request('http://127.0.0.1/v1/pets?limit=2', {
        headers: { authorization: 'Bearer sandbox-free-key', ...headers },
      }),
    )
  const plain = await ask({})
  const withCookie = await ask({ cookie: 'session=abc; theme=dark' })
  expect(withCookie?.status).toBe(200)
  expect(await withCookie?.json()).toEqual(await plain?.json())
})
