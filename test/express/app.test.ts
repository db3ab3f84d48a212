import { existsSync } from 'node:fs'
import { http, HttpResponse } from 'msw'
import { request as httpRequest } from 'node:http'
import { afterAll, afterEach, beforeAll, describe, expect, test, vi } from 'vitest'
import {
  CORS_EXPOSED_HEADERS,
  DEFAULT_BODY_LIMIT,
  SCENARIO_NAMES,
} from 'petstore-sandbox/express'
import { startApp } from './start-app.js'

const FREE = { authorization: 'Bearer sandbox-free-key' }
let app: Awaited<ReturnType<typeof startApp>>
beforeAll(async () => {
  app = await startApp({ seed: 42 })
})
afterEach(() => app.sandbox.reset())
afterAll(() => app.close())

const expectErrorBody = async (response: Response, status: number, code: string) => {
  expect(response.status).toBe(status)
  expect(response.headers.get('content-type')).toMatch(/^application\/json/)
  const body = (await response.json()) as {
    code: string
    message: string
    status: number
  }
  expect(body).toEqual({ code, message: expect.any(String), status })
  expect(body.message).not.toMatch(/\n\s+at /)
  return body
}
const expectRateLimitHeaders = (response: Response) => {
  for (const name of [
    'x-ratelimit-limit',
    'x-ratelimit-remaining',
    'x-ratelimit-reset',
  ]) {
    expect(response.headers.get(name), name).toMatch(/^\d+$/)
  }
}

describe('CORS', () => {
  test('a preflight is answered, allowing Authorization and X-Sandbox-Scenario', async () => {
    const response = await fetch(`${app.origin}/v1/pets`, {
      method: 'OPTIONS',
      headers: {
        origin: 'http://localhost:5173',
        'access-control-request-method': 'POST',
        'access-control-request-headers':
          'authorization, content-type, x-sandbox-scenario',
      },
    })
    expect(response.status).toBe(204)
    expect(response.headers.get('access-control-allow-origin')).toBe('*')
    expect(response.headers.get('access-control-allow-methods')).toMatch(/POST/)
    expect(response.headers.get('access-control-allow-methods')).toMatch(/PUT/)
    const allowed =
      response.headers.get('access-control-allow-headers')?.toLowerCase() ?? ''
    for (const name of ['authorization', 'content-type', 'x-sandbox-scenario'])
      expect(allowed).toContain(name)
    // A preflight is not an API request: not journaled, not counted.
    expect(app.sandbox.journal.recent()).toHaveLength(0)
  })

  test('the control API can be preflighted too (PUT /__sandbox/scenario from a demo page)', async () => {
    const response = await fetch(`${app.origin}/__sandbox/scenario`, {
      method: 'OPTIONS',
      headers: {
        origin: 'http://localhost:5173',
        'access-control-request-method': 'PUT',
        'access-control-request-headers': 'content-type',
      },
    })
    expect(response.status).toBe(204)
  })

  test('every writer of the app sends the CORS headers once, and a handler keeps its own', async () => {
    // The app sets its CORS headers before it knows who answers: the sandbox's replies,
    // a refusal, a user's handler, the control document, a page and the 404 each keep
    // them, one copy each (a handler's own value wins).
    const withOverride = await startApp({
      seed: 42,
      handlers: [
        http.get('*/v1/pets/2', () => HttpResponse.json({ id: 2, name: 'Mine' })),
        http.get('*/v1/pets/3', () =>
          HttpResponse.json(
            {},
            { headers: { 'access-control-allow-origin': 'https://mine.test' } },
          ),
        ),
      ],
    })
    try {
      const answers = {
        api: await fetch(`${withOverride.origin}/v1/pets/1`, { headers: FREE }),
        refused: await fetch(`${withOverride.origin}/v1/pets/1`),
        override: await fetch(`${withOverride.origin}/v1/pets/2`, { headers: FREE }),
        document: await fetch(`${withOverride.origin}/__sandbox/openapi.json`),
        page: await fetch(`${withOverride.origin}/openapi.json`),
        missing: await fetch(`${withOverride.origin}/nowhere`),
      }
      for (const [kind, response] of Object.entries(answers)) {
        expect(response.headers.get('access-control-allow-origin'), kind).toBe('*')
        expect(response.headers.get('access-control-expose-headers'), kind).toBe(
          CORS_EXPOSED_HEADERS.join(', '),
        )
      }
      const own = await fetch(`${withOverride.origin}/v1/pets/3`, { headers: FREE })
      expect(own.headers.get('access-control-allow-origin')).toBe('https://mine.test')
      const control = await fetch(`${withOverride.origin}/__sandbox`, {
        headers: { origin: 'http://localhost:5173' },
      })
      expect(control.headers.get('access-control-allow-origin')).toBe(
        'http://localhost:5173',
      )
      expect(control.headers.get('vary')).toBe('Origin')
    } finally {
      await withOverride.close()
    }
  })

  test('the CORS headers come first in the head, once, whoever wrote the answer', async () => {
    // They go out with the head (api-cors-headers.ts) as if set before anything else.
    const rawHeaders = (
      path: string,
      method = 'GET',
      headers: Record<string, string> = {},
    ) =>
      new Promise<string[]>((resolve, reject) => {
        const request = httpRequest(
          `${app.origin}${path}`,
          { method, headers },
          (res) => {
            res.resume()
            resolve(res.rawHeaders.filter((_, index) => index % 2 === 0))
          },
        )
        request.on('error', reject)
        request.end()
      })
    const heads = [
      await rawHeaders('/v1/pets?limit=1', 'GET', FREE),
      await rawHeaders('/v1/pets/1'),
      await rawHeaders('/v1/pets', 'OPTIONS', {
        origin: 'http://localhost:5173',
        'access-control-request-method': 'POST',
      }),
      await rawHeaders('/nowhere'),
    ]
    for (const names of heads) {
      expect(names.slice(0, 2)).toEqual([
        'access-control-allow-origin',
        'access-control-expose-headers',
      ])
      expect(
        names.filter((name) => /^access-control-allow-origin$/i.test(name)),
      ).toHaveLength(1)
    }
  })

  test('responses expose the rate-limit, Retry-After, deprecation and Allow headers', async () => {
    const response = await fetch(`${app.origin}/v1/pets/1`, {
      headers: { ...FREE, origin: 'http://localhost:5173' },
    })
    expect(response.status).toBe(200)
    expect(response.headers.get('access-control-allow-origin')).toBe('*')
    const exposed =
      response.headers.get('access-control-expose-headers')?.split(/,\s*/) ?? []
    expect(exposed).toEqual(CORS_EXPOSED_HEADERS)
    for (const name of [
      'X-RateLimit-Limit',
      'X-RateLimit-Remaining',
      'X-RateLimit-Reset',
      'Retry-After',
      'Deprecation',
      'Sunset',
      'Link',
      'Allow',
    ]) {
      expect(exposed).toContain(name)
    }
    expect(response.headers.get('deprecation')).toMatch(/^@\d+$/)
  })
})

describe('request bodies', () => {
  const post = (body: string, headers: Record<string, string> = {}) =>
    fetch(`${app.origin}/v1/pets`, {
      method: 'POST',
      headers: { ...FREE, 'content-type': 'application/json', ...headers },
      body,
    })

  test(`a body over ${DEFAULT_BODY_LIMIT} bytes is 413 payload_too_large with the rate-limit headers`, async () => {
    const response = await post(
      JSON.stringify({ name: 'x'.repeat(DEFAULT_BODY_LIMIT), categoryId: 1 }),
    )
    const body = await expectErrorBody(response, 413, 'payload_too_large')
    expect(body.message).toContain('65,536 bytes')
    expect(body.message).toContain('A NewPet such as')
    expectRateLimitHeaders(response)
    // Peeked, not counted; but journaled, so the CLI log shows it.
    expect(response.headers.get('x-ratelimit-remaining')).toBe('60')
    expect(app.sandbox.journal.recent()[0]).toMatchObject({
      method: 'POST',
      status: 413,
      code: 'payload_too_large',
      key: 'sandbox-free-key',
    })
  })

  test('a control body over the limit is 413 with advice for the control API, not a NewPet', async () => {
    const pets = Array.from({ length: 80 }, (_, index) => ({
      id: index + 1,
      name: 'x'.repeat(900),
      categoryId: 1,
      status: 'available',
    }))
    const response = await fetch(`${app.origin}/__sandbox/scenarios/many`, {
      method: 'PUT',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ description: 'many', data: { pets } }),
    })
    const body = await expectErrorBody(response, 413, 'payload_too_large')
    expect(body.message).toContain('65,536 bytes')
    expect(body.message).toContain('"data": {"count": 1000}')
    expect(body.message).not.toContain('NewPet')
  })

  test('a chunked body over the limit is 413 too, and the connection stays usable', async () => {
    const chunks = new ReadableStream({
      start(controller) {
        for (let index = 0; index < 10; index++)
          controller.enqueue(new TextEncoder().encode('x'.repeat(10_000)))
        controller.close()
      },
    })
    const response = await fetch(`${app.origin}/v1/pets`, {
      method: 'POST',
      headers: { ...FREE, 'content-type': 'application/json' },
      body: chunks,
      duplex: 'half',
    } as RequestInit)
    await expectErrorBody(response, 413, 'payload_too_large')
    expect((await fetch(`${app.origin}/v1/pets?limit=1`, { headers: FREE })).status).toBe(
      200,
    )
  })

  test('a body far over the limit is refused without reading it', async () => {
    const status = await new Promise<number>((resolve, reject) => {
      const request = httpRequest(`${app.origin}/v1/pets`, {
        method: 'POST',
        headers: {
          ...FREE,
          'content-type': 'application/json',
          'content-length': String(50 * 1024 * 1024),
        },
      })
      request.on('response', (response) => {
        response.resume()
        resolve(response.statusCode ?? 0)
      })
      request.on('error', reject)
      request.write('{"name":')
    })
    expect(status).toBe(413)
  })

  test('a body just under the limit is read whole', async () => {
    const json = JSON.stringify({ name: 'Rex', categoryId: 1 })
    const response = await post(json + ' '.repeat(DEFAULT_BODY_LIMIT - json.length))
    expect(response.status).toBe(201)
  })

  test('malformed JSON reaches the core: 400 invalid_json', async () => {
    const response = await post('{"name": "Rex",')
    await expectErrorBody(response, 400, 'invalid_json')
    expectRateLimitHeaders(response)
  })

  test('a custom bodyLimit applies', async () => {
    const small = await startApp({ seed: 42, bodyLimit: 64 })
    try {
      const response = await fetch(`${small.origin}/v1/pets`, {
        method: 'POST',
        headers: { ...FREE, 'content-type': 'application/json' },
        body: JSON.stringify({
          name: 'A name that makes this body longer than 64 bytes',
          categoryId: 1,
        }),
      })
      await expectErrorBody(response, 413, 'payload_too_large')
    } finally {
      await small.close()
    }
  })
})

describe('transport errors are JSON too', () => {
  test('headers over 16 KiB are 431 with the Error body', async () => {
    const response = await fetch(`${app.origin}/v1/pets`, {
      headers: { ...FREE, 'x-big': 'x'.repeat(20_000) },
    })
    await expectErrorBody(response, 431, 'request_header_fields_too_large')
  })

  test('unknown paths outside /v1 are a JSON 404 naming what exists', async () => {
    const body = await expectErrorBody(
      await fetch(`${app.origin}/nope`),
      404,
      'not_found',
    )
    expect(body.message).toMatch(/\/v1.*\/__sandbox.*\/openapi\.json/)
  })

  test('an API path without /v1 is a 404 saying where the API is; another path gets no guess', async () => {
    for (const [path, meant] of [
      ['/pets', '/v1/pets'],
      ['/pets/7/', '/v1/pets/7'],
    ]) {
      const body = await expectErrorBody(
        await fetch(`${app.origin}${path}`, { headers: FREE }),
        404,
        'not_found',
      )
      expect(body.message).toContain(
        `No page or endpoint at GET ${path}. Did you mean ${meant} (the API is under /v1)?`,
      )
    }
    for (const path of ['/nope', '/animals/1']) {
      const body = await expectErrorBody(
        await fetch(`${app.origin}${path}`),
        404,
        'not_found',
      )
      expect(body.message).not.toContain('Did you mean')
    }
  })

  test('an error inside a handler is a 500 Error body without a stack trace, reported to onError', async () => {
    const errors: unknown[] = []
    const { createSandbox, createSandboxApp, listenSandboxApp } =
      await import('petstore-sandbox/express')
    const sandbox = createSandbox({ seed: 42 })
    // The adapters' port (not on the public type) fails the way a bug in the core would.
    const { portOf } = await import('../../src/core/pipeline/sandbox-port.js')
    vi.spyOn(portOf(sandbox), 'handle').mockRejectedValue(
      new Error('boom at secret/path.ts'),
    )
    const server = await listenSandboxApp(
      createSandboxApp(sandbox, { onError: (error) => errors.push(error) }),
      { port: 0 },
    )
    try {
      const { port } = server.address() as { port: number }
      const response = await fetch(`http://127.0.0.1:${port}/v1/pets`)
      const body = await expectErrorBody(response, 500, 'internal_error')
      expect(body.message).not.toContain('boom')
      expect(errors).toHaveLength(1)
    } finally {
      server.closeAllConnections()
      await new Promise((resolve) => server.close(resolve))
    }
  })
})

test('listenSandboxApp refuses what is not an app, a port or a host before it listens', async () => {
  const { createSandboxApp, listenSandboxApp, SandboxError } =
    await import('petstore-sandbox/express')
  const app = createSandboxApp()
  const refusals: Array<[unknown, unknown, RegExp]> = [
    [
      {},
      { port: 0 },
      /the app must be an Express app, got object\. Pass what createSandboxApp\(\) returned/,
    ],
    [app, { port: 'abc' }, /port must be a number from 0 to 65535, got "abc"/],
    [app, { port: 70000 }, /port must be a number from 0 to 65535, got 70000/],
    [app, { port: '70000' }, /port must be a number from 0 to 65535, got "70000"/],
    [
      app,
      { port: ' 4010' },
      /got " 4010"\. Pass a number such as 4010 \(or a string of digits/,
    ],
    [app, { port: NaN }, /port must be a number from 0 to 65535, got NaN/],
    [app, { port: 4010n }, /port must be a number from 0 to 65535, got the BigInt 4010n/],
    [app, { port: 0, host: '' }, /host must be a host name or address, got ""/],
  ]
  for (const [given, options, message] of refusals) {
    const listening = listenSandboxApp(given as typeof app, options as { port: number })
    await expect(listening).rejects.toBeInstanceOf(SandboxError)
    await expect(listening).rejects.toThrow(message)
  }
})

test('listenSandboxApp takes a port given as a string of digits, such as process.env.PORT, and a null host as none', async () => {
  const { createSandboxApp, listenSandboxApp } = await import('petstore-sandbox/express')
  // host null is no host: the default, 127.0.0.1.
  const server = await listenSandboxApp(createSandboxApp(), {
    port: '0',
    host: null as never,
  })
  try {
    const address = server.address()
    expect(typeof address === 'object' && address?.port).toBeGreaterThan(0)
    const response = await fetch(
      `http://127.0.0.1:${(address as { port: number }).port}/v1/pets?limit=1`,
      { headers: { authorization: 'Bearer sandbox-free-key' } },
    )
    expect(response.status).toBe(200)
  } finally {
    server.closeAllConnections()
    await new Promise((resolve) => server.close(resolve))
  }
})

describe('the landing page and documents', () => {
  test('/ is an HTML overview: endpoints, demo keys with plans, scenarios, control endpoints, OpenAPI; no CDN', async () => {
    const response = await fetch(`${app.origin}/`)
    expect(response.status).toBe(200)
    expect(response.headers.get('content-type')).toBe('text/html; charset=utf-8')
    const html = await response.text()
    for (const text of [
      '/v1/pets',
      '/v1/pets/{petId}',
      'sandbox-free-key',
      'sandbox-pro-key',
      'sandbox-expired-key',
      '60/min, 1,000/day',
      '/__sandbox/reset',
      '/__sandbox/clock',
      'href="/openapi.json"',
      'href="/__sandbox/report">Report card</a>',
      `curl -H 'Authorization: Bearer sandbox-free-key' '${app.origin}/v1/pets?limit=3'`.replace(
        /'/g,
        '&#39;',
      ),
    ]) {
      expect(html).toContain(text)
    }
    for (const name of SCENARIO_NAMES) expect(html).toContain(`${name}</code>`)
    expect(html).toContain(
      app.sandbox.scenarios.list().find((scenario) => scenario.name === 'missing-pet')
        ?.description,
    )
    // Nothing loaded from elsewhere.
    expect(html).not.toMatch(/(src|href)="(https?:)?\/\//)
  })

  test('/openapi.json serves the OpenAPI document', async () => {
    const response = await fetch(`${app.origin}/openapi.json`)
    expect(response.status).toBe(200)
    expect(response.headers.get('content-type')).toMatch(/^application\/json/)
    const document = (await response.json()) as {
      openapi: string
      paths: Record<string, unknown>
    }
    expect(document.openapi).toMatch(/^3\./)
    expect(Object.keys(document.paths)).toContain('/pets')
  })

  test('/demo/ serves the built browser demo when there is one, else a JSON 404', async () => {
    const built = existsSync(new URL('../../dist/demo/index.html', import.meta.url))
    const response = await fetch(`${app.origin}/demo/`)
    if (built) {
      expect(response.status).toBe(200)
      expect(response.headers.get('content-type')).toMatch(/^text\/html/)
      const redirect = await fetch(`${app.origin}/demo`, { redirect: 'manual' })
      expect(redirect.status).toBe(301)
      expect(redirect.headers.get('location')).toBe('/demo/')
    } else {
      await expectErrorBody(response, 404, 'not_found')
    }
  })
})
