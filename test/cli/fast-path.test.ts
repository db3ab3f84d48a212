import { getResponse, http, RequestHandler, type HttpHandler } from 'msw'
import { afterEach, expect, test, vi } from 'vitest'
import { createSandbox } from 'petstore-sandbox'
import { cliFastPath, FastSandboxHandler } from '../../src/cli/fast-path.js'
import { createSandboxHandler } from '../../src/core/pipeline/handlers.js'

// The CLI's fast path relies on msw internals; these tests run on the msw the CLI bundle
// is built with (pinned in both CI legs) and fail when those internals change.

const fastHandlers = (sandbox: ReturnType<typeof createSandbox>) => [
  createSandboxHandler(sandbox, { define: cliFastPath.define }),
]

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
    for (const handler of fastHandlers(sandbox)) {
      for (const url of URLS) {
        const { ours, msw } = await parseBoth(handler, url)
        expect(ours.match, `${handler.info.header} ${url}`).toEqual(msw.match)
        expect(msw.cookies).toEqual({ session: 'abc' })
        expect(ours.cookies).toEqual({})
      }
    }
  },
)

test("the URL the adapter parsed already is matched as msw matches the request's own", async () => {
  const sandbox = createSandbox({ seed: 42 })
  const [plain] = fastHandlers(sandbox)
  for (const url of URLS) {
    const parsed = new URL(url)
    const handler = cliFastPath.define(
      plain!.info.path as RegExp,
      async () => undefined,
      () => parsed,
    )
    const { ours, msw } = await parseBoth(handler, url)
    expect(ours.match, url).toEqual(msw.match)
  }
})

test('a request with cookies is answered like one without', async () => {
  const sandbox = createSandbox({ seed: 42 })
  const ask = (headers: Record<string, string>) =>
    getResponse(
      fastHandlers(sandbox),
      new Request('http://127.0.0.1/v1/pets?limit=2', {
        headers: { authorization: 'Bearer sandbox-free-key', ...headers },
      }),
    )
  const plain = await ask({})
  const withCookie = await ask({ cookie: 'session=abc; theme=dark' })
  expect(withCookie?.status).toBe(200)
  expect(await withCookie?.json()).toEqual(await plain?.json())
})

afterEach(() => {
  vi.restoreAllMocks()
})

/** Runs every request through `run` of each handler in turn, as msw's executeHandlers does. */
async function runAll(handlers: RequestHandler[], requests: Request[]) {
  const results = []
  for (const [n, request] of requests.entries()) {
    for (const handler of handlers) {
      const result = await handler.run({ request, requestId: `r${n}` })
      if (result === null) continue
      const { response } = result
      results.push({
        fields: Object.keys(result).sort(),
        handler: handlers.indexOf(result.handler),
        used: result.handler.isUsed,
        requestIsMswClone: result.request === RequestHandler.cache.get(request),
        requestId: result.requestId,
        match: (result.parsedResult as { match: unknown }).match,
        status: response?.status,
        headers: Object.fromEntries(response?.headers ?? []),
        body: await response?.text(),
      })
      if (response) break
    }
  }
  return results
}

test("run gives what msw's own run gives, without an abort per request", async () => {
  const clock = { now: '2026-03-01T12:00:00Z', frozen: true }
  const ours = fastHandlers(createSandbox({ seed: 42, clock }))
  // The sandbox's own http.all handlers, over a second, identical sandbox.
  const twins = createSandbox({ seed: 42, clock }).handlers
  const auth = { authorization: 'Bearer sandbox-free-key' }
  const requests = () => [
    new Request('http://127.0.0.1/v1/pets?limit=2', { headers: auth }),
    new Request('http://127.0.0.1/v1/pets', {
      method: 'POST',
      headers: { ...auth, 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'Rex', categoryId: 2, status: 'available' }),
    }),
    new Request('http://127.0.0.1/v1/pets/999999', { headers: auth }),
    new Request('http://127.0.0.1/v1/pets', { method: 'DELETE', headers: auth }),
    new Request('http://127.0.0.1/__sandbox/clock'),
    new Request('http://127.0.0.1/elsewhere'),
  ]
  const abort = vi.spyOn(AbortController.prototype, 'abort')
  const expected = await runAll(twins, requests())
  const abortsByMsw = abort.mock.calls.length
  abort.mockClear()
  const actual = await runAll(ours, requests())
  expect(actual).toEqual(expected)
  expect(actual.map((result) => result.status)).toEqual([200, 201, 404, 405, 200])
  expect(abortsByMsw).toBeGreaterThanOrEqual(5)
  expect(abort).not.toHaveBeenCalled()
})

test('a CONNECT request matches no handler, as in msw 3', async () => {
  const api = fastHandlers(createSandbox({ seed: 42 }))[0]!
  // undici refuses to build a CONNECT Request; msw 3's interceptors make their own.
  const connect = { method: 'CONNECT', url: 'http://127.0.0.1:4010/v1/pets' } as Request
  const get = new Request(connect.url)
  expect((await api.parse({ request: get })).match.matches).toBe(true)
  expect((await api.parse({ request: connect })).match).toEqual({
    matches: false,
    params: {},
  })
})

test('a thrown Response is the answer and a thrown error propagates, as in http.all', async () => {
  const url = 'http://127.0.0.1/teapot'
  for (const make of [
    (answer: () => Promise<Response>) => new FastSandboxHandler(/\/teapot$/, answer),
    (answer: () => Promise<Response>) => http.all(/\/teapot$/, answer),
  ]) {
    const thrownResponse = make(async () => {
      throw new Response('short and stout', { status: 418 })
    })
    const answer = await getResponse([thrownResponse], new Request(url))
    expect(answer?.status).toBe(418)
    expect(await answer?.text()).toBe('short and stout')
    const thrownError = make(async () => {
      throw new TypeError('boom')
    })
    await expect(getResponse([thrownError], new Request(url))).rejects.toThrow('boom')
  }
})

test("msw keeps each request's clone in RequestHandler.cache, which prepare fills with the request itself", async () => {
  expect(RequestHandler.cache).toBeInstanceOf(WeakMap)
  const handler = http.all(/\/v1\/pets$/, () => new Response('ok'))
  const request = new Request('http://127.0.0.1/v1/pets')
  await handler.run({ request, requestId: 'r1' })
  const clone = RequestHandler.cache.get(request)
  expect(clone).toBeInstanceOf(Request)
  expect(clone).not.toBe(request)

  const prepared = new Request('http://127.0.0.1/v1/pets')
  cliFastPath.prepare(prepared)
  const cloneSpy = vi.spyOn(Request.prototype, 'clone')
  const result = await handler.run({ request: prepared, requestId: 'r2' })
  expect(result?.request).toBe(prepared)
  expect(cloneSpy).not.toHaveBeenCalled()
})
