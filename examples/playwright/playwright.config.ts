import { defineConfig } from '@playwright/test'
import type { SessionOptions } from './tests/fixtures.js'

// One standalone sandbox for the whole run, on a free port: `--port 0` lets the system
// choose, and `wait` reads the address off the server's one-line `--quiet` banner into
// process.env.SANDBOX_ORIGIN. The workers start after it and inherit it, so in their
// copy of this config baseURL is the sandbox (the main process never opens a page).

export default defineConfig<SessionOptions>({
  testDir: './tests',
  outputDir: './test-output/results',
  // Four workers, every test in any of them: the tests' sessions keep them apart.
  workers: 4,
  fullyParallel: true,
  // A retry would run one worker's part of a choreography alone (tests/barrier.ts).
  retries: 0,
  forbidOnly: !!process.env.CI,
  reporter: 'list',
  // Generous: a busy CI machine starts four browsers at once.
  timeout: 120_000,
  expect: { timeout: 15_000 },
  globalSetup: './tests/global-setup.ts',

  webServer: {
    command: 'npx petstore-sandbox --port 0 --quiet',
    wait: { stdout: /listening on (?<sandbox_origin>http:\/\/127\.0\.0\.1:\d+)\/v1/ },
    // The sandbox closes cleanly on SIGTERM; the run never reuses a server left running.
    gracefulShutdown: { signal: 'SIGTERM', timeout: 5_000 },
    reuseExistingServer: false,
    stderr: 'pipe',
  },

  use: {
    baseURL: process.env.SANDBOX_ORIGIN,
    // Debian's Chromium, no browser download (`apt-get install chromium`).
    launchOptions: {
      executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
      args: [
        '--headless',
        '--no-sandbox',
        '--disable-gpu',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
        '--no-first-run',
      ],
    },
  },

  projects: [
    {
      // Four users, one session per worker (tests/fixtures.ts): no collisions.
      name: 'sessions',
      testMatch: 'sessions.spec.ts',
      use: { sessionPerWorker: true },
    },
    {
      // The companion check: two users in the default session, and the collisions that
      // sessions prevent. After the first project, so the two never share workers.
      name: 'default-session',
      testMatch: 'default-session.spec.ts',
      use: { sessionPerWorker: false },
      dependencies: ['sessions'],
      workers: 2,
    },
  ],
})
