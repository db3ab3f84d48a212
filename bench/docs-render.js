// The /docs/ rows of issue 17: the standalone server (the built CLI) on loopback, a
// Chromium (CHROME_PATH, else Debian's /usr/bin/chromium or a Chrome), a fresh browser
// context per run (no cache), times from navigation start:
// - until the operations are rendered: the page's build-time list (docs-preview.js),
//   read by element timing as the moment listPets is painted. Target: under 1 s.
// - until Swagger UI has rendered them, so "Try it out" works: the page's
//   `swagger-ui-rendered` mark. No target; reported beside it, cold and warm (the same
//   page again in that context, with the browser's cache and compiled code).
// In `npm run bench`; alone: BENCH_ONLY=docs npm run bench (BENCH_DOCS_RUNS, default 7).
import { existsSync } from 'node:fs'
import { performance } from 'node:perf_hooks'
import { chromium } from 'playwright-core'
import { freePort, sandboxArgs, startNode, waitFor200 } from './lib/children.js'
import { evaluateTargets, fmt, median } from './lib/report.js'

const BROWSERS = [
  '/usr/bin/chromium',
  '/usr/bin/chromium-browser',
  '/usr/bin/google-chrome',
  '/usr/bin/google-chrome-stable',
]

/** The targets of issue 17's "Done when". */
export const DOCS_TARGETS = [
  {
    id: 'docs-listed',
    label: '/docs/ until the operations are rendered (cold, loopback)',
    value: (r) => r.docs?.listed?.medianMs,
    op: '<',
    limit: 1000,
    unit: 'ms',
  },
]

export function evaluateDocsTargets(results) {
  return evaluateTargets(results, DOCS_TARGETS).map((target) =>
    results.docs?.skipped ? { ...target, result: 'NOT MEASURED' } : target,
  )
}

/** What the page itself recorded: when listPets was painted, and when Swagger UI took over. */
async function pageTimes(page) {
  await page.waitForSelector('body[data-ready="true"]', { timeout: 20_000 })
  await page.waitForFunction(
    () => performance.getEntriesByName('swagger-ui-rendered').length > 0,
    undefined,
    { timeout: 20_000 },
  )
  return page.evaluate(
    () =>
      new Promise((resolve) => {
        const answer = (entries) => {
          const entry = entries.find((e) => e.identifier === 'docs-listed')
          resolve({
            // Not painted at all (Swagger UI took its place first): no figure.
            listed: entry ? entry.renderTime || entry.loadTime : Number.NaN,
            interactive: performance.getEntriesByName('swagger-ui-rendered')[0].startTime,
          })
        }
        // Element timing entries are buffered: the observer gets the one already painted,
        // and is not called at all when there is none.
        new PerformanceObserver((list) => answer(list.getEntries())).observe({
          type: 'element',
          buffered: true,
        })
        setTimeout(() => answer([]), 1000)
      }),
  )
}

const summary = (values) => {
  const sorted = [...values].sort((a, b) => a - b)
  return { medianMs: median(sorted), minMs: sorted[0], maxMs: sorted.at(-1) }
}

/** Runs the section; resolves with `{skipped}` when there is no browser to run it in. */
export async function measureDocsRender(root, log) {
  const runs = Math.max(1, Number(process.env.BENCH_DOCS_RUNS) || 7)
  const executablePath =
    process.env.CHROME_PATH || BROWSERS.find((path) => existsSync(path))
  if (!executablePath) {
    const skipped =
      'no Chromium: install one (sudo apt-get install -y chromium) or set CHROME_PATH'
    log(`docs: not measured, ${skipped}`)
    return { skipped }
  }
  log(`docs: /docs/ in ${executablePath}, ${runs} cold loads (+1 warm-up)`)
  const port = await freePort()
  const server = startNode(sandboxArgs(root, port), { cwd: root })
  let browser
  try {
    await waitFor200(server, port, '/docs/', {}, performance.now())
    browser = await chromium.launch({
      executablePath,
      args: ['--headless', '--no-sandbox', '--disable-gpu', '--no-first-run'],
    })
    const cold = { listed: [], interactive: [] }
    const warm = []
    for (let run = 0; run <= runs; run++) {
      const context = await browser.newContext()
      const page = await context.newPage()
      await page.goto(`http://127.0.0.1:${port}/docs/`, { waitUntil: 'commit' })
      const first = await pageTimes(page)
      await page.goto(`http://127.0.0.1:${port}/docs/`, { waitUntil: 'commit' })
      const again = await pageTimes(page)
      await context.close()
      // The first run warms the server's file cache.
      if (run === 0) continue
      cold.listed.push(first.listed)
      cold.interactive.push(first.interactive)
      warm.push(again.interactive)
      log(
        `  run ${run}: listed ${fmt(first.listed, 0)} ms, Swagger UI ${fmt(first.interactive, 0)} ms (warm ${fmt(again.interactive, 0)} ms)`,
      )
    }
    return {
      browser: executablePath,
      runs,
      listed: summary(cold.listed),
      interactive: summary(cold.interactive),
      warmInteractive: summary(warm),
    }
  } finally {
    await browser?.close()
    await server.kill()
  }
}

/** The /docs/ section: its rows and the target. */
export function renderDocs(results, targets) {
  const d = results.docs
  const lines = ['## /docs/ (issue 17; Chromium on loopback, fresh context per load)', '']
  if (d.skipped) return `${lines.join('\n')}Not measured: ${d.skipped}.\n`
  const verdict = targets.find((target) => target.id === 'docs-listed')?.result ?? ''
  const ms = (s) => `${fmt(s.medianMs, 0)} ms (${fmt(s.minMs, 0)} to ${fmt(s.maxMs, 0)})`
  lines.push(
    `| figure (median of ${d.runs}) | time | target |`,
    '| --- | --- | --- |',
    `| until the operations are rendered (the page's list, painted) | **${ms(d.listed)}** | < 1,000 ms ${verdict} |`,
    `| until Swagger UI has rendered them ("Try it out" ready), cold | ${ms(d.interactive)} | none |`,
    `| the same, warm (same context again: cached, compiled) | ${ms(d.warmInteractive)} | none |`,
  )
  return `${lines.join('\n')}\n`
}
