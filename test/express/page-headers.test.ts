import { existsSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { startApp } from './start-app.js'

// Every page the standalone server serves refuses to be framed by another origin and runs
// no inline script; /demo/'s connect-src names the API origin of its ?api=, and only an
// http(s) one (docs/security.md). The browser suite (test/browser/page-safety.test.ts)
// shows the same rules holding in Chromium.

const dist = fileURLToPath(new URL('../../dist/', import.meta.url))

let app: Awaited<ReturnType<typeof startApp>>
beforeAll(async () => {
  for (const page of ['demo/index.html', 'docs/index.html', 'inspector/index.html']) {
    if (!existsSync(`${dist}${page}`)) {
      throw new Error(
        `dist/${page} is missing: these tests check the built pages. Run "npm run build --silent" first (npm test does).`,
      )
    }
  }
  app = await startApp({ seed: 42 })
})
afterAll(() => app?.close())

/** The directives of a Content-Security-Policy header, by name. */
function directives(policy: string | null): Map<string, string[]> {
  const found = new Map<string, string[]>()
  for (const part of (policy ?? '').split(';')) {
    const [name, ...values] = part.trim().split(/\s+/)
    if (name) found.set(name.toLowerCase(), values)
  }
  return found
}

const get = (path: string) => fetch(`${app.origin}${path}`, { redirect: 'manual' })

describe('every page refuses to be framed by another origin', () => {
  test.each([
    ['/', 200],
    ['/?token=nope', 200],
    ['/demo/', 200],
    ['/demo/?mode=server&api=http%3A%2F%2F127.0.0.1%3A4010', 200],
    ['/demo/index.html', 200],
    ['/demo', 301],
    ['/docs/', 200],
    ['/docs', 301],
    ['/inspector/', 200],
    ['/inspector/?session=alice', 200],
    ['/inspector', 301],
    ['/favicon.svg', 200],
    ['/favicon.ico', 200],
  ])('%s (%i)', async (path, status) => {
    const response = await get(path)
    expect(response.status).toBe(status)
    const policy = directives(response.headers.get('content-security-policy'))
    expect(policy.get('frame-ancestors')).toEqual(["'self'"])
    expect(response.headers.get('x-frame-options')).toBe('SAMEORIGIN')
    expect(response.headers.get('x-content-type-options')).toBe('nosniff')
    // A page's URL may hold the control token: it never leaves as a referrer.
    expect(response.headers.get('referrer-policy')).toBe('no-referrer')
    await response.body?.cancel()
  })
})

describe('/demo/', () => {
  test('runs no inline script: none in its HTML, and its policy allows none', async () => {
    const response = await get('/demo/')
    const policy = directives(response.headers.get('content-security-policy'))
    expect(policy.get('script-src')).toEqual(["'self'"])
    expect(policy.get('default-src')).toEqual(["'none'"])
    expect(policy.get('base-uri')).toEqual(["'none'"])
    const html = await response.text()
    for (const tag of html.match(/<script\b[^>]*>/g) ?? []) {
      expect(tag).toMatch(/\bsrc="\.\/[\w.-]+\.js"/)
    }
    expect(html).not.toMatch(/\son[a-z]+\s*=/i)
    expect(html).not.toMatch(/javascript:/i)
  })

  test('connects to this server only, or also to the http(s) origin of its ?api=', async () => {
    const own = directives((await get('/demo/')).headers.get('content-security-policy'))
    expect(own.get('connect-src')).toEqual(["'self'"])
    const other = directives(
      (
        await get(
          '/demo/?mode=server&api=' + encodeURIComponent('http://127.0.0.1:4011/v1/'),
        )
      ).headers.get('content-security-policy'),
    )
    expect(other.get('connect-src')).toEqual(["'self'", 'http://127.0.0.1:4011'])
    const secure = directives(
      (
        await get('/demo/?api=' + encodeURIComponent('https://Sandbox.Example:443'))
      ).headers.get('content-security-policy'),
    )
    expect(secure.get('connect-src')).toEqual(["'self'", 'https://sandbox.example'])
    const loopback6 = directives(
      (await get('/demo/?api=' + encodeURIComponent('http://[::1]:4011'))).headers.get(
        'content-security-policy',
      ),
    )
    expect(loopback6.get('connect-src')).toEqual(["'self'", 'http://[::1]:4011'])
  })

  test.each([
    'javascript:alert(document.domain)//x',
    ' javascript:alert(1)',
    'data:text/html,<script>alert(1)</script>',
    'file:///etc/passwd',
    'ws://127.0.0.1:4010',
    '//evil.example',
    "http://a.example; script-src * 'unsafe-inline'",
    'http://a.example,script-src *',
    'http://a.example;script-src',
    "http://a'self'",
    '*',
  ])('?api=%s adds nothing to the policy', async (api) => {
    const response = await get(`/demo/?mode=server&api=${encodeURIComponent(api)}`)
    expect(response.status).toBe(200)
    const header = response.headers.get('content-security-policy') ?? ''
    const policy = directives(header)
    expect(policy.get('connect-src')).toEqual(["'self'"])
    expect(policy.get('script-src')).toEqual(["'self'"])
    expect(header).not.toMatch(/javascript|data:text|evil|a\.example|\*/)
    await response.body?.cancel()
  })

  test('/demo keeps its query on the way to /demo/', async () => {
    const response = await get('/demo?mode=server&api=http%3A%2F%2F127.0.0.1%3A4011')
    expect(response.status).toBe(301)
    expect(response.headers.get('location')).toBe(
      '/demo/?mode=server&api=http%3A%2F%2F127.0.0.1%3A4011',
    )
  })
})

describe('the icon', () => {
  test.each(['/favicon.svg', '/favicon.ico'])(
    "%s is the SVG every page links, under the pages' policy",
    async (path) => {
      const response = await get(path)
      expect(response.status).toBe(200)
      expect(response.headers.get('content-type')).toBe('image/svg+xml')
      const policy = directives(response.headers.get('content-security-policy'))
      expect(policy.get('default-src')).toEqual(["'none'"])
      expect(policy.get('script-src')).toEqual(["'self'"])
      const svg = await response.text()
      expect(svg).toMatch(
        /^<svg xmlns="http:\/\/www\.w3\.org\/2000\/svg"[^>]*>.*<\/svg>$/,
      )
      expect(svg).not.toMatch(/<script|\son[a-z]+=/i)
    },
  )

  test('every page links it, so no browser asks for a missing /favicon.ico', async () => {
    const icon = await (await get('/favicon.svg')).text()
    for (const path of ['/', '/docs/', '/inspector/']) {
      const html = await (await get(path)).text()
      expect(html, path).toContain(
        '<link rel="icon" href="/favicon.svg" type="image/svg+xml">',
      )
    }
    // The demo is also served by static servers: it carries the same icon inline.
    const demo = await (await get('/demo/')).text()
    const inline = /<link\s+rel="icon"\s+href="data:image\/svg\+xml,([^"]+)"/.exec(
      demo,
    )?.[1]
    expect(inline && decodeURIComponent(inline)).toBe(icon)
  })

  test('takes GET and HEAD only, as every page', async () => {
    const head = await fetch(`${app.origin}/favicon.ico`, { method: 'HEAD' })
    expect(head.status).toBe(200)
    expect(await head.text()).toBe('')
    const post = await fetch(`${app.origin}/favicon.ico`, { method: 'POST' })
    expect(post.status).toBe(405)
    expect(post.headers.get('allow')).toBe('GET, HEAD')
    expect(await post.json()).toMatchObject({ code: 'method_not_allowed', status: 405 })
  })
})
