import { readdirSync, readFileSync } from 'node:fs'
import { availableParallelism } from 'node:os'
import { fileURLToPath } from 'node:url'
import type { Reporter } from 'vitest/reporters'
import { defineConfig } from 'vitest/config'
import { findBrowser, INSTALL_HINT } from './test/browser/find-browser.js'
import { findNginx } from './test/scale-out/nginx-process.js'

const src = (path: string) => fileURLToPath(new URL(`./src/${path}`, import.meta.url))

// Two tiers, as vitest projects: `npm test` runs `fast` (vitest run --project fast
// --project fast-isolated, below), the everyday check of API behaviour in under a minute
// (Vitest's Duration: 34 to 39 s on 2 quiet cores, 46 s with a busy loop per core, as
// CI's fresh-machine run has); `npm run test:all` runs both tiers. Every test file is in exactly one tier, by where it lives, so a new file needs no
// edit here:
// - fast: unit tests beside the code (src/), and the API in process or over a loopback
//   port: test/contract, test/node, test/express, test/security, test/overrides,
//   test/scenario-selection.test.ts, and the browser worker (test/browser/demo.test.ts,
//   test/browser/worker-*.test.ts) where a browser starts.
// - full: everything else: the package as published at test/ (tarball, types, CJS build,
//   notices, entry points, boundaries), CLI processes (test/cli), hostile sockets and the
//   soak (test/hostile), pages in Chromium (the other test/browser files), the scale-out
//   (test/scale-out), and the slow files of fast folders named in SLOW_IN_FAST_FOLDERS.
// Put a test that spawns the CLI under test/cli, one that measures a process or runs for
// seconds under test/hostile, and a page test under test/browser (not worker-*).
const FAST = [
  /^src\/.+\.test\.ts$/,
  /^test\/(contract|node|express|security|overrides)\/.+\.test\.ts$/,
  /^test\/scenario-selection\.test\.ts$/,
  /^test\/browser\/(demo|worker-.+)\.test\.ts$/,
]
const SLOW_IN_FAST_FOLDERS = [
  'test/express/stalled-readers.test.ts', // a child process and 100 stalled sockets
  'test/security/cli-access.test.ts', // spawns the CLI
  // Six Chromiums replaying the contract suite (which fast runs on node and express) one
  // request at a time through a page: 80-120 s, half of npm test; demo.test.ts keeps the
  // service worker in fast.
  'test/browser/worker-contract.test.ts',
  'test/node/file-store/lock.test.ts', // processes racing for a lock
]

/** Every test file of the repository, as a path from its root. */
function testFiles(): string[] {
  const root = fileURLToPath(new URL('.', import.meta.url))
  return ['src', 'test'].flatMap((folder) =>
    readdirSync(`${root}${folder}`, { recursive: true, encoding: 'utf8' })
      .map((file) => `${folder}/${file.split('\\').join('/')}`)
      .filter((file) => file.endsWith('.test.ts') && !file.includes('node_modules/')),
  )
}

function tierOf(file: string): 'fast' | 'full' {
  if (SLOW_IN_FAST_FOLDERS.includes(file)) return 'full'
  return FAST.some((rule) => rule.test(file)) ? 'fast' : 'full'
}

// The fast tier's files share their worker's modules (isolate: false): each file loading
// Express, msw and the sandbox anew took 65 to 72 s of npm test's 82 to 90 s (Vitest's
// "import"; 33 s in all when shared). A file that replaces a module (vi.mock) needs its
// own, so it runs in project `fast-isolated`, as every full-tier file does; npm test runs
// both fast projects.
const mocksModules = (file: string) =>
  /\bvi\.(do)?mock\(/.test(readFileSync(new URL(`./${file}`, import.meta.url), 'utf8'))

// The browser suite runs when a browser starts here (test/browser/find-browser.ts). Without
// one, its files are not collected at all and the run ends with one line saying so; CI
// sets PETSTORE_REQUIRE_BROWSER=1, which keeps them, so they fail with the reason.
const BROWSER_SUITE = 'test/browser/**/*.test.ts'
const browserSearch = findBrowser()
const requireBrowser = process.env.PETSTORE_REQUIRE_BROWSER === '1'
const runBrowserSuite = browserSearch.found || requireBrowser

// The scale-out suite needs Debian's nginx, the same way: left out where there is none,
// with a line saying so; CI sets PETSTORE_REQUIRE_NGINX=1 and installs it.
const NGINX_SUITE = 'test/scale-out/**/*.test.ts'
const nginxFound = findNginx() !== undefined
const runNginxSuite = nginxFound || process.env.PETSTORE_REQUIRE_NGINX === '1'

const collected = testFiles().filter(
  (file) =>
    (runBrowserSuite || !file.startsWith('test/browser/')) &&
    (runNginxSuite || !file.startsWith('test/scale-out/')),
)
const filesOf = (tier: 'fast' | 'full') =>
  collected.filter((file) => tierOf(file) === tier)
const fastShared = filesOf('fast').filter((file) => !mocksModules(file))
const fastIsolated = filesOf('fast').filter(mocksModules)

/** The tiers this run selected (--project), known once vitest starts. */
let tiers: string[] = []

/** Prints the notices last, after vitest's own summary (the browser's last of all). */
const suiteNotices: Reporter = {
  onInit(vitest) {
    tiers = vitest.projects.map((project) => project.name)
  },
  onTestRunEnd() {
    // The scale-out suite is in the full tier only: npm test has nothing to say about it.
    if (!runNginxSuite && tiers.includes('full')) {
      process.stdout.write(
        `\nScale-out suite (${NGINX_SUITE}) did not run: no nginx on this machine. To run it, sudo apt-get install -y nginx.\n`,
      )
    }
    if (runBrowserSuite || browserSearch.found) return
    process.stdout.write(
      `\nBrowser suite (${BROWSER_SUITE}) did not run: ${browserSearch.reason}. To run it, ${INSTALL_HINT}.\n`,
    )
  },
}

export default defineConfig({
  resolve: {
    // Tests import the package by its public names, as users do.
    alias: [
      { find: /^petstore-sandbox\/node$/, replacement: src('node/index.ts') },
      { find: /^petstore-sandbox\/express$/, replacement: src('express/index.ts') },
      { find: /^petstore-sandbox$/, replacement: src('index.ts') },
      // faker's Faker class without its 70 locales (test/faker-class.ts).
      {
        find: /^@faker-js\/faker$/,
        replacement: fileURLToPath(new URL('./test/faker-class.ts', import.meta.url)),
      },
    ],
  },
  test: {
    projects: [
      {
        extends: true,
        test: {
          name: 'fast',
          include: fastShared,
          isolate: false,
          // What a file leaves behind fails that file, not the next (test/leftovers.ts).
          setupFiles: ['test/leftovers.ts'],
        },
      },
      { extends: true, test: { name: 'fast-isolated', include: fastIsolated } },
      { extends: true, test: { name: 'full', include: filesOf('full') } },
    ],
    provide: { browserSearch },
    // Vitest's default is one worker fewer than the cores: one file at a time on CI's two.
    // Both cores run files: npm test took 3 min 32 s on one worker.
    maxWorkers: availableParallelism(),
    // Room for a loaded machine: with one busy loop per core (CI's fresh-machine run) and
    // load 11, a test of 1.8 s took 16 s and the contract's 1,000-request test 42 s (it
    // has 120 s of its own, test/contract/suite.ts).
    testTimeout: 60_000,
    hookTimeout: 60_000,
    reporters: ['default', suiteNotices],
  },
})
