import { execFileSync } from 'node:child_process'
import { existsSync, readdirSync } from 'node:fs'
import { homedir } from 'node:os'
import { join } from 'node:path'

// Which Chromium or Chrome the browser suite (test/browser) drives. vitest.config.ts asks
// once per run: with a browser, the suite runs on it; without one, its files are left out
// (they register no tests, so nothing is skipped) and the run ends with one line saying
// why and how to install one. A machine with only Node and npm has none, and a browser
// from the npm registry cannot be relied on there (no libnss3 and the other system
// libraries Chrome needs), so `npm test` must pass without it. CI sets
// PETSTORE_REQUIRE_BROWSER=1: the suite then runs whatever the search found, and fails
// when it found nothing.

/** Debian's chromium (what .ci/run installs), then the usual places of Chrome. */
const SYSTEM_BROWSERS = [
  '/usr/bin/chromium',
  '/usr/bin/chromium-browser',
  '/usr/bin/google-chrome',
  '/usr/bin/google-chrome-stable',
  '/Applications/Google Chrome.app/Contents/MacOS/Google Chrome',
  '/Applications/Chromium.app/Contents/MacOS/Chromium',
]

/** The command the notice and the failure name. */
export const INSTALL_HINT =
  'install one with "sudo apt-get install -y chromium" (Debian, Ubuntu), or set CHROME_PATH to a Chrome or Chromium'

export type BrowserSearch =
  | { found: true; executablePath: string; source: string }
  | { found: false; reason: string }

/** Browsers of a Playwright cache (`npx playwright install chromium`), newest first. */
function playwrightBrowsers(): string[] {
  const cache =
    process.env.PLAYWRIGHT_BROWSERS_PATH || join(homedir(), '.cache', 'ms-playwright')
  if (!existsSync(cache)) return []
  const found: string[] = []
  for (const folder of readdirSync(cache).sort().reverse()) {
    if (!/^chromium(_headless_shell)?-\d+$/.test(folder)) continue
    for (const file of [
      'chrome-linux/chrome',
      'chrome-linux64/chrome',
      'chrome-linux/headless_shell',
      'chrome-headless-shell-linux64/chrome-headless-shell',
    ]) {
      const path = join(cache, folder, file)
      if (existsSync(path)) found.push(path)
    }
  }
  return found
}

/** Why the browser at `path` cannot start, or undefined when it can. */
function cannotStart(path: string): string | undefined {
  try {
    // Loading the binary is where a machine without Chrome's libraries fails (libnss3);
    // --version loads it without opening a window or a profile.
    execFileSync(path, ['--version'], { stdio: 'pipe', timeout: 15_000 })
    return undefined
  } catch (error) {
    const stderr = String((error as { stderr?: unknown }).stderr ?? '')
    const line =
      stderr
        .split('\n')
        .map((text) => text.trim())
        .find((text) => /error|cannot|not found/i.test(text)) ??
      (error as Error).message.split('\n')[0]
    return `${path} does not start (${line})`
  }
}

/**
 * Looks for a browser that starts: CHROME_PATH when set (and only it), otherwise the
 * system's Chromium or Chrome, then a Playwright cache.
 * PETSTORE_IGNORE_SYSTEM_BROWSERS=1 leaves out all but CHROME_PATH, as on a fresh machine.
 */
export function findBrowser(env: NodeJS.ProcessEnv = process.env): BrowserSearch {
  const explicit = env.CHROME_PATH
  if (explicit) {
    if (!existsSync(explicit))
      return { found: false, reason: `CHROME_PATH=${explicit} does not exist` }
    const problem = cannotStart(explicit)
    return problem
      ? { found: false, reason: problem }
      : { found: true, executablePath: explicit, source: 'CHROME_PATH' }
  }
  if (env.PETSTORE_IGNORE_SYSTEM_BROWSERS === '1') {
    return {
      found: false,
      reason: 'no CHROME_PATH, and PETSTORE_IGNORE_SYSTEM_BROWSERS=1 hides the others',
    }
  }
  const problems: string[] = []
  for (const [path, source] of [
    ...SYSTEM_BROWSERS.map((path) => [path, 'system'] as const),
    ...playwrightBrowsers().map((path) => [path, 'Playwright cache'] as const),
  ]) {
    if (!existsSync(path)) continue
    const problem = cannotStart(path)
    if (!problem) return { found: true, executablePath: path, source }
    problems.push(problem)
  }
  return {
    found: false,
    reason:
      problems.length > 0
        ? problems.join('; ')
        : 'no Chromium or Chrome found (CHROME_PATH is not set, none in /usr/bin, no Playwright cache)',
  }
}

/** The arguments every browser test launches Chromium with (root, no network beyond loopback). */
export const LAUNCH_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
]

/** The browser the suite launches; throws the search's reason when there is none. */
export function browserPath(search: BrowserSearch): string {
  if (search.found) return search.executablePath
  throw new Error(
    `Failed to start the browser suite: ${search.reason}. To run it, ${INSTALL_HINT}.`,
  )
}

declare module 'vitest' {
  export interface ProvidedContext {
    /** What vitest.config.ts found (findBrowser), for the browser suite. */
    browserSearch: BrowserSearch
  }
}
