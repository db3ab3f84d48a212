import { fileURLToPath } from 'node:url'
import type { Reporter } from 'vitest/reporters'
import { configDefaults, defineConfig } from 'vitest/config'
import { findBrowser, INSTALL_HINT } from './test/browser/find-browser.js'
import { findNginx } from './test/scale-out/nginx-process.js'

const src = (path: string) => fileURLToPath(new URL(`./src/${path}`, import.meta.url))

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

/** Prints the notices last, after vitest's own summary (the browser's last of all). */
const suiteNotices: Reporter = {
  onTestRunEnd() {
    if (!runNginxSuite) {
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
    ],
  },
  test: {
    include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
    exclude: [
      ...configDefaults.exclude,
      ...(runBrowserSuite ? [] : [BROWSER_SUITE]),
      ...(runNginxSuite ? [] : [NGINX_SUITE]),
    ],
    provide: { browserSearch },
    testTimeout: 20_000,
    hookTimeout: 30_000,
    reporters: ['default', suiteNotices],
  },
})
