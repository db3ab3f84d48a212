// The built Storybook (storybook-static/) in a real Chromium: msw-storybook-addon
// starts the sandbox's service worker and the stories show its answers. Uses the
// machine's Chromium or Chrome (CHROME_PATH, or the usual system paths); on a machine
// without one it says so and passes, since the portable stories already ran in Vitest.
import assert from 'node:assert/strict'
import { existsSync } from 'node:fs'
import { readFile } from 'node:fs/promises'
import { createServer } from 'node:http'
import { extname, resolve, sep } from 'node:path'
import { fileURLToPath } from 'node:url'
import { createSandbox } from 'petstore-sandbox'
import { chromium } from 'playwright-core'

const root = fileURLToPath(new URL('../storybook-static/', import.meta.url))
const executablePath = [
  process.env.CHROME_PATH,
  '/usr/bin/chromium',
  '/usr/bin/chromium-browser',
  '/usr/bin/google-chrome',
].find((path) => path && existsSync(path))
if (!executablePath) {
  console.log('Skipped the browser check: no Chromium or Chrome found (set CHROME_PATH).')
  process.exit(0)
}

const types = {
  '.html': 'text/html',
  '.js': 'text/javascript',
  '.mjs': 'text/javascript',
  '.css': 'text/css',
  '.json': 'application/json',
  '.svg': 'image/svg+xml',
  '.woff2': 'font/woff2',
}
const server = createServer(async (request, response) => {
  const path = decodeURIComponent(new URL(request.url ?? '/', 'http://local').pathname)
  const file = resolve(root, `.${path.endsWith('/') ? `${path}index.html` : path}`)
  if (!file.startsWith(root.endsWith(sep) ? root : root + sep)) {
    response.writeHead(403).end()
    return
  }
  try {
    const body = await readFile(file)
    response.writeHead(200, {
      'content-type': types[extname(file)] ?? 'application/octet-stream',
    })
    response.end(body)
  } catch {
    response.writeHead(404).end()
  }
})
await new Promise((listening) => server.listen(0, '127.0.0.1', listening))
const origin = `http://127.0.0.1:${server.address().port}`

const browser = await chromium.launch({
  executablePath,
  args: [
    '--no-sandbox',
    '--disable-gpu',
    '--disable-quic',
    '--no-first-run',
    '--disable-background-networking',
    '--disable-component-update',
    '--disable-sync',
  ],
})
try {
  const page = await browser.newPage()
  const story = (id) => `${origin}/iframe.html?id=petlist--${id}&viewMode=story`

  await page.goto(story('default'))
  const errors = []
  page.on('pageerror', (error) => errors.push(error.message))
  const pets = '#storybook-root ul[aria-label=pets] li'
  await page.waitForSelector(pets, { timeout: 30_000 }).catch((error) => {
    throw new Error(`${error.message}\nPage errors: ${errors.join('; ') || 'none'}`)
  })
  const names = await page.$$eval(pets, (items) => items.map((item) => item.textContent))
  const seeded = createSandbox({ seed: 42 })
  await seeded.ready
  assert.deepEqual(
    names,
    seeded.db.pets
      .all()
      .slice(0, 5)
      .map((pet) => pet.name),
  )

  await page.goto(story('rate-limited'))
  const alert = await page.waitForSelector('#storybook-root [role=alert]', {
    timeout: 30_000,
  })
  assert.match((await alert.textContent()) ?? '', /Try again in \d+ s\.$/)
  console.log(
    `The built Storybook served the sandbox in ${executablePath}: ${names.join(', ')}; a 429.`,
  )
} finally {
  await browser.close()
  server.close()
}
