import {
  existsSync,
  mkdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
  copyFileSync,
} from 'node:fs'
import { createServer, type Server } from 'node:http'
import { createRequire } from 'node:module'
import type { AddressInfo } from 'node:net'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { build } from 'esbuild'
import { chromium, type Browser } from 'playwright-core'
import { afterAll, beforeAll, inject, expect, test } from 'vitest'
import { browserPath, LAUNCH_ARGS } from './find-browser.js'

// The override file of test/overrides (used there in Node, Express and the CLI) in the
// browser runtime: setupSandboxWorker({ handlers }) in Debian's Chromium.

const root = fileURLToPath(new URL('../..', import.meta.url))
const pageDir = join(root, 'test-output/overrides-page')

let browser: Browser
let server: Server
let origin: string

beforeAll(async () => {
  rmSync(pageDir, { recursive: true, force: true })
  mkdirSync(pageDir, { recursive: true })
  await build({
    absWorkingDir: root,
    entryPoints: [join(root, 'test/browser/overrides-page.ts')],
    outfile: join(pageDir, 'page.js'),
    bundle: true,
    format: 'esm',
    platform: 'browser',
    target: 'es2022',
    alias: { 'petstore-sandbox/browser': join(root, 'src/browser/index.ts') },
    define: { 'process.env.NODE_ENV': '"production"' },
    logLevel: 'warning',
  })
  writeFileSync(
    join(pageDir, 'index.html'),
    '<!doctype html><html lang="en"><head><meta charset="utf-8"><title>overrides</title></head><body><script type="module" src="/page.js"></script></body></html>',
  )
  copyFileSync(
    createRequire(import.meta.url).resolve('msw/mockServiceWorker.js'),
    join(pageDir, 'mockServiceWorker.js'),
  )
  server = createServer((request, response) => {
    const name =
      new URL(request.url ?? '/', 'http://localhost').pathname.slice(1) || 'index.html'
    const file = join(pageDir, name)
    if (!/^[a-zA-Z.]+$/.test(name) || !existsSync(file)) {
      response.writeHead(404).end()
      return
    }
    response
      .writeHead(200, {
        'content-type': name.endsWith('.html') ? 'text/html' : 'text/javascript',
      })
      .end(readFileSync(file))
  })
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done))
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
  browser = await chromium.launch({
    executablePath: browserPath(inject('browserSearch')),
    args: LAUNCH_ARGS,
  })
})

afterAll(async () => {
  await browser?.close()
  server?.closeAllConnections()
  await new Promise((done) => server?.close(done))
  rmSync(pageDir, { recursive: true, force: true })
})

test('the same override file answers in the browser, falls through, and is journalled', async () => {
  const context = await browser.newContext()
  try {
    const page = await context.newPage()
    const errors: string[] = []
    page.on('pageerror', (error) => errors.push(error.message))
    page.on('console', (message) => {
      if (message.type() === 'error') errors.push(message.text())
    })
    await page.goto(`${origin}/`)
    await page
      .waitForSelector('body[data-ready="true"]', { state: 'attached', timeout: 10_000 })
      .catch(() => {
        throw new Error(
          `The page did not start: ${errors.join('; ') || 'no error shown'}`,
        )
      })
    const result = await page.evaluate(async () => {
      const auth = { authorization: 'Bearer sandbox-free-key' }
      const json = { ...auth, 'content-type': 'application/json' }
      const pet = await fetch('/v1/pets/4242', { headers: auth })
      const teapot = await fetch('/v1/pets', {
        method: 'POST',
        headers: json,
        body: JSON.stringify({ name: 'Teapot', categoryId: 1 }),
      })
      const rex = await fetch('/v1/pets', {
        method: 'POST',
        headers: json,
        body: JSON.stringify({ name: 'Rex', categoryId: 2 }),
      })
      const sandbox = (
        window as unknown as {
          sandbox: { journal: { recent(): Array<Record<string, unknown>> } }
        }
      ).sandbox
      return {
        pet: {
          status: pet.status,
          body: await pet.json(),
          override: pet.headers.get('x-override'),
          remaining: pet.headers.get('x-ratelimit-remaining'),
        },
        teapot: teapot.status,
        rex: {
          status: rex.status,
          body: await rex.json(),
          remaining: rex.headers.get('x-ratelimit-remaining'),
        },
        journal: sandbox.journal.recent().map(({ method, path, status, override }) => ({
          method,
          path,
          status,
          override: override ?? false,
        })),
      }
    })
    expect(result.pet).toEqual({
      status: 200,
      body: { id: 4242, name: 'Overridden', categoryId: 1, status: 'available' },
      override: 'pet',
      remaining: null,
    })
    expect(result.teapot).toBe(418)
    expect(result.rex).toMatchObject({
      status: 201,
      body: { name: 'Rex' },
      remaining: '59',
    })
    expect(result.journal).toEqual(
      expect.arrayContaining([
        { method: 'GET', path: '/v1/pets/4242', status: 200, override: true },
        { method: 'POST', path: '/v1/pets', status: 418, override: true },
        { method: 'POST', path: '/v1/pets', status: 201, override: false },
      ]),
    )
  } finally {
    await context.close()
  }
})
