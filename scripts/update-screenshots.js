// Updates the screenshots the docs show from the browser suite's own run: the tests that
// drive the pages in Chromium write them into test-output/, and this copies each one to
// where the docs link it. Needs a browser (see test/browser/find-browser.ts).
//   node scripts/update-screenshots.js
import { execFileSync } from 'node:child_process'
import { copyFileSync, existsSync } from 'node:fs'
import { dirname, join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..')

/** test-output/<name> → where the docs link it. */
const SHOTS = [
  ['docs.png', 'screenshots/api-reference.png'], // docs/server.md
  ['docs-key-bar.png', 'screenshots/api-reference-key-bar.png'], // docs/server.md
  ['inspector.png', 'screenshots/inspector.png'], // docs/server.md
  ['inspector-report.png', 'docs/images/inspector-report.png'], // README, docs/report-card.md
  ['browser-demo.png', 'examples/browser/screenshot.png'], // examples/browser/README.md
]

const vitest = join(root, 'node_modules/vitest/vitest.mjs')
for (const [project, file] of [
  ['full', 'test/browser/pages.test.ts'],
  ['fast', 'test/browser/demo.test.ts'],
]) {
  execFileSync(process.execPath, [vitest, 'run', '--project', project, file], {
    cwd: root,
    stdio: 'inherit',
    env: { ...process.env, PETSTORE_REQUIRE_BROWSER: '1' },
  })
}
for (const [from, to] of SHOTS) {
  const source = join(root, 'test-output', from)
  if (!existsSync(source)) {
    throw new Error(
      `${source} is missing: the browser suite did not write it. Did its test run (a browser found)?`,
    )
  }
  copyFileSync(source, join(root, to))
  console.log(`${to} ← test-output/${from}`)
}
