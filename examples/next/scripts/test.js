// npm test: the app built twice, as production ships it.
// 1. Without NEXT_PUBLIC_API_MOCKING: no client chunk holds msw or the sandbox, and there
//    is no worker script in public/.
// 2. With NEXT_PUBLIC_API_MOCKING=enabled: `next start` on a free port of 127.0.0.1 serves
//    the sandbox's seeded pets from the server component (/) and the route handler
//    (/api/pets); in Chromium, when one is found, the client component shows them too,
//    answered by the service worker. api.example.test does not exist: only the sandbox
//    can have answered.
import assert from 'node:assert/strict'
import { spawn, spawnSync } from 'node:child_process'
import { existsSync, readdirSync, readFileSync } from 'node:fs'
import { createServer } from 'node:net'
import { join } from 'node:path'
import { createSandbox } from 'petstore-sandbox'
import { chromium } from 'playwright-core'

// The API's address in lib/pets-api.ts.
const API_BASE = 'https://api.example.test/v1'
const env = { ...process.env, NEXT_TELEMETRY_DISABLED: '1' }
delete env.NEXT_PUBLIC_API_MOCKING
// Strings only msw's browser code and the sandbox's handlers contain.
const markers = ['[MSW]', 'mockServiceWorker', '/__sandbox']

function build(mocking) {
  console.log(`\n== next build, NEXT_PUBLIC_API_MOCKING=${mocking ?? '(unset)'}`)
  const result = spawnSync('npm', ['run', 'build', '--silent'], {
    stdio: 'inherit',
    env: mocking ? { ...env, NEXT_PUBLIC_API_MOCKING: mocking } : env,
  })
  assert.equal(result.status, 0, 'next build failed (its output is above)')
}

/** The markers each built client chunk contains, by file. */
function markersInClientChunks() {
  const found = {}
  const dir = '.next/static'
  for (const file of readdirSync(dir, { recursive: true })) {
    if (!String(file).endsWith('.js')) continue
    const text = readFileSync(join(dir, String(file)), 'utf8')
    const hits = markers.filter((marker) => text.includes(marker))
    if (hits.length) found[file] = hits
  }
  return found
}

function freePort() {
  return new Promise((resolve, reject) => {
    const probe = createServer().once('error', reject)
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address()
      probe.close(() => resolve(port))
    })
  })
}

/** `next start` on 127.0.0.1; resolves once it prints Ready, with a stop(). */
async function startNext() {
  const port = await freePort()
  const child = spawn(
    'node_modules/.bin/next',
    ['start', '-H', '127.0.0.1', '-p', String(port)],
    {
      env: { ...env, NEXT_PUBLIC_API_MOCKING: 'enabled' },
      stdio: ['ignore', 'pipe', 'pipe'],
      detached: true,
    },
  )
  let output = ''
  const exited = new Promise((resolve) => child.once('exit', resolve))
  const stop = async () => {
    try {
      process.kill(-child.pid, 'SIGTERM')
    } catch {
      // already gone
    }
    await exited
  }
  try {
    await new Promise((resolve, reject) => {
      const timer = setTimeout(
        () => reject(new Error(`next start printed no Ready in 60 s:\n${output}`)),
        60_000,
      )
      const read = (chunk) => {
        output += chunk
        if (/Ready/.test(output)) {
          clearTimeout(timer)
          resolve()
        }
      }
      child.stdout.on('data', read)
      child.stderr.on('data', read)
      child.once('exit', (code) => {
        clearTimeout(timer)
        reject(new Error(`next start exited with ${code}:\n${output}`))
      })
    })
  } catch (error) {
    await stop()
    throw error
  }
  return { origin: `http://127.0.0.1:${port}`, stop, output: () => output }
}

const chromePath = [
  process.env.CHROME_PATH,
  '/usr/bin/chromium',
  '/usr/bin/chromium-browser',
  '/usr/bin/google-chrome',
].find((path) => path && existsSync(path))

async function clientComponentNames(origin) {
  const browser = await chromium.launch({
    executablePath: chromePath,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--no-first-run',
      '--disable-background-networking',
    ],
  })
  try {
    const page = await browser.newPage()
    const errors = []
    page.on('pageerror', (error) => errors.push(error.message))
    const apiAnswers = []
    page.on('response', (response) => {
      if (response.url().startsWith(API_BASE)) apiAnswers.push(response)
    })
    await page.goto(origin)
    const items = 'ul[aria-label="client pets"] li'
    await page.waitForSelector(items, { timeout: 30_000 }).catch(async (error) => {
      const shown = await page.textContent('main').catch(() => '')
      throw new Error(
        `${error.message}\nThe page shows: ${shown}\nPage errors: ${errors.join('; ') || 'none'}`,
      )
    })
    assert.ok(apiAnswers.length > 0, 'the client component called the API')
    for (const answer of apiAnswers) {
      assert.ok(answer.fromServiceWorker(), `${answer.url()} was answered by the network`)
    }
    return await page.$$eval(items, (list) => list.map((item) => item.textContent))
  } finally {
    await browser.close()
  }
}

const seeded = createSandbox({ seed: 42 })
await seeded.ready
const expected = seeded.db.pets
  .all()
  .slice(0, 5)
  .map((pet) => pet.name)

// 1. Mocking off: nothing of the sandbox ships.
build(undefined)
assert.deepEqual(
  markersInClientChunks(),
  {},
  'A build without NEXT_PUBLIC_API_MOCKING ships msw or the sandbox in these client chunks',
)
assert.equal(
  existsSync('public/mockServiceWorker.js'),
  false,
  'public/mockServiceWorker.js ships without NEXT_PUBLIC_API_MOCKING',
)
console.log(
  'Mocking off: no client chunk holds msw or the sandbox; no worker script in public/.',
)

// 2. Mocking on.
build('enabled')
const chunks = markersInClientChunks()
assert.deepEqual(
  [...new Set(Object.values(chunks).flat())].sort(),
  [...markers].sort(),
  'With NEXT_PUBLIC_API_MOCKING=enabled the client chunks should hold msw and the sandbox (else the check above proves nothing)',
)
const next = await startNext()
try {
  const page = await fetch(next.origin)
  assert.equal(
    page.status,
    200,
    `GET / answered ${page.status} (next start's output is below)`,
  )
  const html = await page.text()
  const serverList = /<ul aria-label="server pets">(.*?)<\/ul>/s.exec(html)?.[1] ?? ''
  assert.deepEqual(
    [...serverList.matchAll(/<li>(.*?)<\/li>/g)].map((match) => match[1]),
    expected,
    'the server component lists the sandbox pets',
  )
  const route = await fetch(`${next.origin}/api/pets`)
  assert.equal(route.status, 200)
  assert.deepEqual(
    (await route.json()).map((pet) => pet.name),
    expected,
    'the route handler answers the sandbox pets',
  )
  const script = await fetch(`${next.origin}/mockServiceWorker.js`)
  assert.equal(script.status, 200, 'next start serves public/mockServiceWorker.js')
  console.log(
    `Mocking on: the server component and /api/pets show ${expected.join(', ')}.`,
  )

  if (chromePath) {
    assert.deepEqual(
      await clientComponentNames(next.origin),
      expected,
      'the client component lists the sandbox pets',
    )
    console.log(
      `Mocking on: in ${chromePath}, the client component shows them from the service worker.`,
    )
  } else {
    console.log(
      'Skipped the client component check: no Chromium or Chrome found (set CHROME_PATH).',
    )
  }
} catch (error) {
  console.error(`next start's output:\n${next.output()}`)
  throw error
} finally {
  await next.stop()
}
