// The time until /docs/ shows the operations: the standalone server (the built CLI) on
// loopback, Debian's Chromium (playwright-core), a fresh browser context per run (no
// cache), from navigation start to the listPets operation in the page. Target: under
// 1 s. Prints a markdown row and writes bench/results/docs-render.json.
// Run after `npm run build`: node bench/docs-render.js (BENCH_DOCS_RUNS, default 7).
import { mkdirSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { performance } from 'node:perf_hooks'
import { fileURLToPath } from 'node:url'
import { chromium } from 'playwright-core'
import {
  freePort,
  guardChildren,
  killAll,
  startNode,
  waitFor200,
} from './lib/children.js'

const ROOT = fileURLToPath(new URL('..', import.meta.url))
const RUNS = Math.max(1, Number(process.env.BENCH_DOCS_RUNS) || 7)
const TARGET_MS = 1000

guardChildren()
const port = await freePort()
const server = startNode([
  join(ROOT, 'bin/petstore-sandbox.js'),
  '--port',
  String(port),
  '--quiet',
])
let browser
try {
  await waitFor200(server, port, '/docs/', {}, performance.now())
  browser = await chromium.launch({
    executablePath: '/usr/bin/chromium',
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--no-first-run'],
  })
  const times = []
  const warmTimes = []
  for (let run = 0; run <= RUNS; run++) {
    const context = await browser.newContext()
    const page = await context.newPage()
    await page.goto(`http://127.0.0.1:${port}/docs/`, { waitUntil: 'commit' })
    await page.waitForSelector('#operations-Pets-listPets', { timeout: 10_000 })
    // performance.now() counts from the navigation's start (the page's time origin).
    const ms = await page.evaluate(() => performance.now())
    // The same page again in that context: the browser's cache and compiled code warm.
    await page.goto(`http://127.0.0.1:${port}/docs/`, { waitUntil: 'commit' })
    await page.waitForSelector('#operations-Pets-listPets', { timeout: 10_000 })
    const warm = await page.evaluate(() => performance.now())
    await context.close()
    if (run > 0) {
      times.push(ms) // the first run warms the server's file cache
      warmTimes.push(warm)
    }
  }
  times.sort((a, b) => a - b)
  warmTimes.sort((a, b) => a - b)
  const median = times[Math.floor(times.length / 2)]
  const warmMedian = warmTimes[Math.floor(warmTimes.length / 2)]
  const result = {
    date: new Date().toISOString(),
    runs: times.length,
    medianMs: Math.round(median),
    minMs: Math.round(times[0]),
    maxMs: Math.round(times.at(-1)),
    warmMedianMs: Math.round(warmMedian),
    targetMs: TARGET_MS,
    met: median < TARGET_MS,
  }
  mkdirSync(join(ROOT, 'bench/results'), { recursive: true })
  writeFileSync(
    join(ROOT, 'bench/results/docs-render.json'),
    `${JSON.stringify(result, null, 2)}\n`,
  )
  console.log(
    `| /docs/ until the operations are rendered (median of ${result.runs}, fresh context; then again in that context) | ${result.medianMs} ms (${result.minMs} to ${result.maxMs}); warm ${result.warmMedianMs} ms | < ${TARGET_MS} ms: ${result.met ? 'met' : 'missed'} |`,
  )
  if (!result.met) process.exitCode = 1
} finally {
  await browser?.close()
  await server.kill()
  killAll()
}
