import { test as base } from '@playwright/test'
import { DemoPage } from './demo-page.js'

/** The project option that turns sessions on or off (playwright.config.ts). */
export interface SessionOptions {
  /** true: every request of a worker's browser names the worker's own session. */
  sessionPerWorker: boolean
}

interface Fixtures {
  /** The session this test's requests name, or undefined for the default session. */
  sessionId: string | undefined
  demo: DemoPage
}

export const test = base.extend<SessionOptions & Fixtures>({
  sessionPerWorker: [true, { option: true }],
  sessionId: async ({ sessionPerWorker }, use, testInfo) => {
    await use(sessionPerWorker ? `worker-${testInfo.workerIndex}` : undefined)
  },
  // The whole of the isolation: the browser context adds the header to every request
  // its pages make (the demo's fetch calls included), and to page.request.
  extraHTTPHeaders: async ({ extraHTTPHeaders, sessionId }, use) => {
    await use(
      sessionId === undefined
        ? extraHTTPHeaders
        : { ...extraHTTPHeaders, 'X-Sandbox-Session': sessionId },
    )
  },
  demo: async ({ page }, use) => {
    await use(new DemoPage(page))
  },
})

export { expect } from '@playwright/test'
