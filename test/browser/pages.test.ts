import { execFileSync } from 'node:child_process'
import type { IncomingMessage, ServerResponse } from 'node:http'
import { existsSync, mkdirSync, readFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, inject, test } from 'vitest'
import { startApp } from '../express/start-app.js'
import { validateHar } from '../har-schema/validate-har.js'
import { browserPath, LAUNCH_ARGS } from './find-browser.js'

// Drives the standalone server's own pages, /docs/ (Swagger UI) and /inspector/, in
// Debian's Chromium: "Try it out" against the sandbox, the request showing up live in
// the inspector, nothing loaded from another host, and axe-core's accessibility check.

const root = fileURLToPath(new URL('../..', import.meta.url))
const outDir = join(root, 'test-output')
const axeSource = readFileSync(
  createRequire(import.meta.url).resolve('axe-core/axe.min.js'),
  'utf8',
)

type AxeViolation = { id: string; impact: string | null; help: string; nodes: unknown[] }

/** axe-core's serious and critical violations on the page as it is now. */
async function seriousViolations(page: Page) {
  // evaluate() is the debugger's, not a script of the page: the page's CSP allows it.
  await page.evaluate(axeSource)
  const violations = await page.evaluate(async () => {
    const axe = (
      window as unknown as { axe: { run(): Promise<{ violations: AxeViolation[] }> } }
    ).axe
    return (await axe.run()).violations
  })
  return violations
    .filter(
      (violation) => violation.impact === 'serious' || violation.impact === 'critical',
    )
    .map((violation) => ({
      id: violation.id,
      help: violation.help,
      nodes: (violation.nodes as Array<{ target: unknown; failureSummary?: string }>)
        .slice(0, 20)
        .map((node) => ({ target: node.target, summary: node.failureSummary })),
    }))
}

/**
 * Whether `label` sits beside `control` on one row, before it: their boxes share a line
 * (each one's vertical middle within the other) and the label ends where the control starts.
 */
async function onOneRow(page: Page, label: string, control: string) {
  const [a, b] = await Promise.all([
    page.locator(label).boundingBox(),
    page.locator(control).boundingBox(),
  ])
  if (!a || !b) return `${!a ? label : control} is not shown`
  const middle = (box: typeof a) => box.y + box.height / 2
  const within = (y: number, box: typeof a) => y >= box.y && y <= box.y + box.height
  if (!within(middle(a), b) || !within(middle(b), a))
    return `${label} (y ${a.y}-${a.y + a.height}) and ${control} (y ${b.y}-${b.y + b.height}) are on different rows`
  if (a.x + a.width > b.x) return `${label} does not come before ${control}`
  return 'one row'
}

/**
 * For a test that loads several pages, /docs/ among them (1.7 MB of Swagger UI to compile
 * each time): about 20 s on a 2-core machine under load, against the 20 s default.
 */
const PAGE_LOADS_TIMEOUT = 60_000

let browser: Browser
let app: Awaited<ReturnType<typeof startApp>>
let context: BrowserContext
const requested: string[] = []
const cspErrors: string[] = []
const pageErrors: string[] = []

beforeAll(async () => {
  if (!existsSync(join(root, 'dist/docs/index.html'))) {
    execFileSync(process.execPath, [join(root, 'scripts/build-pages.js')], {
      stdio: 'inherit',
    })
  }
  app = await startApp({ seed: 42 })
  // The browser the suite found (CHROME_PATH, the system's, a Playwright cache).
  browser = await chromium.launch({
    executablePath: browserPath(inject('browserSearch')),
    args: LAUNCH_ARGS,
  })
  context = await browser.newContext({ viewport: { width: 1280, height: 900 } })
  await context.grantPermissions(['clipboard-read', 'clipboard-write'], {
    origin: app.origin,
  })
  context.on('request', (request) => requested.push(request.url()))
  context.on('console', (message) => {
    if (/Content Security Policy/i.test(message.text())) cspErrors.push(message.text())
  })
  context.on('weberror', (error) => pageErrors.push(error.error().message))
})

afterAll(async () => {
  await context?.close()
  await browser?.close()
  await app?.close()
})

describe('/docs/ and /inspector/ on the standalone server', () => {
  let docs: Page
  let inspector: Page

  test('/docs/ renders every operation from the served OpenAPI document', async () => {
    docs = await context.newPage()
    const response = await docs.goto(`${app.origin}/docs/`)
    expect(response?.status()).toBe(200)
    expect(response?.headers()['content-security-policy']).toContain("script-src 'self'")
    await docs.waitForSelector('#operations-Pets-listPets')
    await docs.waitForSelector('body[data-ready="true"]')
    // Swagger UI has taken the place of the build-time list.
    expect(await docs.locator('#docs-preview').count()).toBe(0)
    expect(await docs.locator('#swagger-ui').isVisible()).toBe(true)
    for (const id of ['createPet', 'getPet']) {
      await expect
        .poll(() => docs.locator(`#operations-Pets-${id}`).isVisible(), {
          timeout: 10_000,
        })
        .toBe(true)
    }
    // The control API is in its own document, behind the picker.
    expect(await docs.locator('#operations-Sandbox-listRequests').count()).toBe(0)
    expect(await docs.locator('#openapi-document').inputValue()).toBe('api')
    // The document's first server is this one, so "Try it out" calls the sandbox.
    await expect
      .poll(() => docs.locator('.servers select option').first().textContent(), {
        timeout: 10_000,
      })
      .toContain(`${app.origin}/v1`)
    // The demo keys, from the running sandbox.
    await expect
      .poll(() => docs.locator('#demo-key option').count(), { timeout: 10_000 })
      .toBeGreaterThan(5)
  })

  test("/docs/'s key bar keeps each label beside its picker, at any width", async () => {
    try {
      for (const width of [1280, 1024, 800, 600, 400]) {
        await docs.setViewportSize({ width, height: 900 })
        for (const id of ['openapi-document', 'demo-key']) {
          expect(
            await onOneRow(docs, `label[for="${id}"]`, `#${id}`),
            `${id} at ${width}px`,
          ).toBe('one row')
        }
        // Nothing sticks out of the bar (a picker too wide for a narrow window shrinks).
        const bar = await docs.locator('.sandbox-key').boundingBox()
        const key = await docs.locator('#demo-key').boundingBox()
        expect(key!.x + key!.width, `#demo-key at ${width}px`).toBeLessThanOrEqual(
          bar!.x + bar!.width,
        )
      }
    } finally {
      await docs.setViewportSize({ width: 1280, height: 900 })
    }
  })

  test('"Try it out" starts off, as in every Swagger UI: the first click on it opens the form', async () => {
    const operation = docs.locator('#operations-Pets-listPets')
    await operation.locator('.opblock-summary-control').click()
    const button = operation.locator('button.try-out__btn')
    expect((await button.textContent())?.trim()).toBe('Try it out')
    expect(await operation.locator('button.execute').count()).toBe(0)
    await button.click()
    await expect.poll(() => operation.locator('button.execute').count()).toBe(1)
    expect((await button.textContent())?.trim()).toBe('Cancel')
  })

  test('"Try it out" on listPets with a demo key answers 200 with the rate-limit headers', async () => {
    await docs.selectOption('#demo-key', 'sandbox-pro-key')
    // Opened, with its form on, by the test before.
    const operation = docs.locator('#operations-Pets-listPets')
    await operation.locator('tr[data-param-name="limit"] input').fill('3')
    await operation.locator('button.execute').click()
    const live = operation.locator('.live-responses-table')
    await expect
      .poll(() => live.locator('tbody .response-col_status').first().textContent(), {
        timeout: 10_000,
      })
      .toContain('200')
    const headers = (
      await live.locator('tbody .response-col_description').first().innerText()
    ).toLowerCase()
    expect(headers).toContain('x-ratelimit-limit: 300')
    expect(headers).toMatch(/x-ratelimit-remaining: \d+/)
    expect(headers).toContain('x-ratelimit-reset')
    const [entry] = app.sandbox.journal.recent(1)
    expect(entry).toMatchObject({
      path: '/v1/pets?limit=3',
      status: 200,
      key: 'sandbox-pro-key',
    })
  })

  test('/docs/ has no serious or critical accessibility violation', async () => {
    expect(await seriousViolations(docs)).toEqual([])
  })

  test(
    "/docs/'s picker switches to the control API's document, whose server is this server's root",
    async () => {
      const page = await context.newPage()
      try {
        await page.goto(`${app.origin}/docs/`)
        await page.waitForSelector('body[data-ready="true"]')
        await page.selectOption('#openapi-document', 'control')
        // GET /__sandbox/clock: the later tests read the journal, which a reset would empty.
        const clock = page.locator('#operations-Sandbox-getClock')
        await expect.poll(() => clock.isVisible(), { timeout: 10_000 }).toBe(true)
        expect(await page.locator('#operations-Pets-listPets').count()).toBe(0)
        expect(new URL(page.url()).searchParams.get('document')).toBe('control')
        // The control API takes no key: no key picker, a note that says so instead.
        expect(await page.locator('#demo-key').isVisible()).toBe(false)
        expect(await page.locator('label[for="demo-key"]').isVisible()).toBe(false)
        expect(await page.locator('.sandbox-key').innerText()).toContain(
          'The control API takes no API key',
        )
        expect(await page.locator('.sandbox-key').innerText()).not.toContain('Bearer')
        await expect
          .poll(() => page.locator('.servers select option').first().textContent(), {
            timeout: 10_000,
          })
          .toMatch(new RegExp(`^${app.origin} - `))
        // "Try it out" calls /__sandbox/clock on this server, not /v1/__sandbox/clock.
        await clock.locator('.opblock-summary-control').click()
        await clock.locator('button.try-out__btn').click()
        await clock.locator('button.execute').click()
        await expect
          .poll(
            () =>
              clock
                .locator('.live-responses-table tbody .response-col_status')
                .first()
                .textContent(),
            { timeout: 10_000 },
          )
          .toContain('200')
        expect(await clock.locator('.request-url pre').textContent()).toBe(
          `${app.origin}/__sandbox/clock`,
        )
        expect(await seriousViolations(page)).toEqual([])
        // A reload keeps the choice; switching back shows the API again.
        await page.reload()
        await page.waitForSelector('body[data-ready="true"]')
        expect(await page.locator('#openapi-document').inputValue()).toBe('control')
        await page.waitForSelector('#operations-Sandbox-resetSandbox')
        expect(await page.locator('#demo-key').isVisible()).toBe(false)
        await page.selectOption('#openapi-document', 'api')
        await page.waitForSelector('#operations-Pets-listPets')
        expect(await page.locator('#demo-key').isVisible()).toBe(true)
        expect(await page.locator('.sandbox-key').innerText()).not.toContain(
          'The control API takes no API key',
        )
        expect(new URL(page.url()).searchParams.has('document')).toBe(false)
        expect(await seriousViolations(page)).toEqual([])
      } finally {
        await page.close()
      }
    },
    PAGE_LOADS_TIMEOUT,
  )

  test('/docs/ lists every operation before Swagger UI renders, and without it', async () => {
    type Document = {
      paths: Record<
        string,
        Record<string, { operationId?: string; deprecated?: boolean }>
      >
    }
    // Both documents' operations: the picker needs Swagger UI, the list does not.
    const documents: Document[] = []
    for (const path of ['/openapi.json', '/__sandbox/openapi.json'])
      documents.push(await (await fetch(`${app.origin}${path}`)).json())
    const operations = documents.flatMap((openapi) =>
      Object.entries(openapi.paths).flatMap(([path, item]) =>
        Object.entries(item)
          .filter(([, operation]) => operation.operationId)
          .map(([method, operation]) => ({ path, method, ...operation })),
      ),
    )
    expect(operations.some(({ path }) => path === '/__sandbox/reset')).toBe(true)
    expect(operations.length).toBeGreaterThan(10)
    // Swagger UI's script does not arrive: the page keeps its list and says why.
    const bare = await context.newPage()
    await bare.route('**/docs/swagger-ui-bundle.js', (route) => route.abort())
    await bare.goto(`${app.origin}/docs/`)
    const status = bare.locator('.docs-preview-status')
    await expect
      .poll(() => status.textContent(), { timeout: 10_000 })
      .toContain('Swagger UI (./swagger-ui-bundle.js) did not load')
    for (const { path, method, operationId, deprecated } of operations) {
      const item = bare.locator(`#docs-preview li[data-operation="${operationId}"]`)
      expect(await item.isVisible(), operationId).toBe(true)
      expect(await item.locator('.opblock-summary-method').textContent()).toBe(
        method.toUpperCase(),
      )
      expect(await item.locator('.opblock-summary-path').textContent()).toBe(path)
      expect(await item.locator('.docs-preview-deprecated').count()).toBe(
        deprecated ? 1 : 0,
      )
    }
    expect(await bare.locator('#swagger-ui').isHidden()).toBe(true)
    expect(await seriousViolations(bare)).toEqual([])
    await bare.close()
  })

  test('/inspector/ shows that request, and the next ones without reloading', async () => {
    inspector = await context.newPage()
    await inspector.goto(`${app.origin}/inspector/`)
    const first = inspector.locator('.psi-entry').first()
    await expect
      .poll(() => first.locator('.psi-path').textContent(), { timeout: 10_000 })
      .toBe('/v1/pets?limit=3')
    const text = await first.innerText()
    expect(text).toContain('sandbox-pro-key')
    expect(text).toContain('pro')
    expect(text).toMatch(/\d+ of 300 left/)
    await inspector.evaluate(() => {
      ;(window as unknown as { loaded: boolean }).loaded = true
    })

    // A request without a key, then a deprecated call from the docs page's "Try it out".
    await fetch(`${app.origin}/v1/pets`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{"name":""}',
    })
    const missing = inspector.locator('.psi-entry[data-code="missing_api_key"]')
    await expect.poll(() => missing.isVisible(), { timeout: 10_000 }).toBe(true)
    expect(await missing.innerText()).toContain('What to do: Missing key')
    const getPet = docs.locator('#operations-Pets-getPet')
    await getPet.locator('.opblock-summary-control').click()
    await getPet.locator('button.try-out__btn').click()
    await getPet.locator('tr[data-param-name="petId"] input').fill('1')
    await getPet.locator('button.execute').click()
    const deprecated = inspector.locator('.psi-entry', { hasText: '/v1/pets/1' })
    await expect.poll(() => deprecated.isVisible(), { timeout: 10_000 }).toBe(true)
    expect(await deprecated.innerText()).toContain('Deprecated call')
    expect(
      await inspector.evaluate(() => (window as unknown as { loaded?: boolean }).loaded),
    ).toBe(true)
    // Newest first.
    expect(await inspector.locator('.psi-entry .psi-path').first().textContent()).toBe(
      '/v1/pets/1',
    )
  })

  test("/inspector/'s Status filter sits beside the Session field, on its row", async () => {
    try {
      for (const width of [1280, 900]) {
        await inspector.setViewportSize({ width, height: 900 })
        const box = async (selector: string) => {
          const found = await inspector.locator(selector).boundingBox()
          if (!found) throw new Error(`${selector} is not shown at ${width}px`)
          return found
        }
        const session = await box('input[name="session"]')
        const button = await box('.psi-controls button[type="submit"]')
        const filter = await box('select[name="status"]')
        // One row: the three controls end on one line (a select's box is a pixel or two
        // taller than an input's), left to right.
        const bottom = (found: typeof session) => found.y + found.height
        for (const [name, found] of [
          ['Show session', button],
          ['Status', filter],
        ] as const) {
          expect(
            Math.abs(bottom(found) - bottom(session)),
            `${name} at ${width}px: ${bottom(found)} against ${bottom(session)}`,
          ).toBeLessThanOrEqual(3)
        }
        expect(session.x + session.width).toBeLessThan(button.x)
        expect(button.x + button.width).toBeLessThan(filter.x)
        // Their labels too.
        const labels = inspector.locator('.psi-controls label')
        const tops = await labels.evaluateAll((found) =>
          found.map((label) => Math.round(label.getBoundingClientRect().top)),
        )
        expect(Math.abs(tops[0]! - tops[1]!), `labels at ${width}px`).toBeLessThanOrEqual(
          3,
        )
        // The session field's hint under it, not between the rows.
        const hint = await box('.psi-notes .psi-hint')
        expect(hint.y).toBeGreaterThanOrEqual(bottom(filter))
      }
    } finally {
      await inspector.setViewportSize({ width: 1280, height: 900 })
    }
  })

  test('screenshot of /inspector/ with its first requests', async () => {
    mkdirSync(outDir, { recursive: true })
    await inspector.evaluate(() => window.scrollTo(0, 0))
    await inspector.screenshot({ path: join(outDir, 'inspector.png') })
  })

  test('filters by status, copies a request as curl, and is usable from the keyboard', async () => {
    await inspector.selectOption('select[name="status"]', 'errors')
    await expect
      .poll(() => inspector.locator('.psi-entry:not([hidden])').count(), {
        timeout: 10_000,
      })
      .toBe(1)
    await inspector.selectOption('select[name="status"]', 'all')

    const entry = inspector.locator('.psi-entry', { hasText: '/v1/pets?limit=3' })
    await entry.locator('button.psi-copy').click()
    const copied = await inspector.evaluate(() => navigator.clipboard.readText())
    expect(copied).toBe(
      `curl -i '${app.origin}/v1/pets?limit=3' -H 'Authorization: Bearer sandbox-pro-key'`,
    )
    const missing = inspector.locator(
      '.psi-entry[data-code="missing_api_key"] button.psi-copy',
    )
    await missing.click()
    expect(await inspector.evaluate(() => navigator.clipboard.readText())).toBe(
      `curl -i -X POST '${app.origin}/v1/pets' -H 'Content-Type: application/json' --data-raw '{"name":""}'`,
    )

    // Keyboard only: Tab to the session field, type a session key, Enter.
    await inspector.locator('body').focus()
    for (let i = 0; i < 12; i++) {
      await inspector.keyboard.press('Tab')
      if (
        await inspector.evaluate(
          () => document.activeElement?.getAttribute('name') === 'session',
        )
      )
        break
    }
    expect(
      await inspector.evaluate(() => document.activeElement?.getAttribute('name')),
    ).toBe('session')
    await inspector.keyboard.type('sandbox-free-key.alice')
    await inspector.keyboard.press('Enter')
    await expect
      .poll(() => inspector.locator('[role="status"]').textContent(), { timeout: 10_000 })
      .toContain('session sandbox-free-key.alice')
    await fetch(`${app.origin}/v1/pets?limit=1`, {
      headers: { authorization: 'Bearer sandbox-free-key.alice' },
    })
    const alice = inspector.locator('.psi-entry')
    await expect.poll(() => alice.count(), { timeout: 10_000 }).toBe(1)
    expect(await alice.innerText()).toContain('alice')
    await inspector.fill('input[name="session"]', '')
    await inspector.keyboard.press('Enter')
    await expect
      .poll(() => inspector.locator('.psi-entry').count(), { timeout: 10_000 })
      .toBe(3)
  })

  test('downloads the session shown as an export and as HAR', async () => {
    const download = async (label: string) => {
      const [file] = await Promise.all([
        inspector.waitForEvent('download'),
        inspector.getByRole('button', { name: label }).click(),
      ])
      const path = await file.path()
      return {
        name: file.suggestedFilename(),
        data: JSON.parse(readFileSync(path, 'utf8')),
      }
    }
    const session = await download('Download session')
    expect(session.name).toBe('petstore-sandbox-default.session.json')
    expect(session.data).toMatchObject({
      format: 'petstore-sandbox/session@1',
      session: 'default',
    })
    expect(session.data.pets).toHaveLength(50)
    const har = await download('Download HAR')
    expect(har.name).toBe('petstore-sandbox-default.har')
    expect(validateHar(har.data)).toEqual([])
    expect(har.data.log.entries.map((entry: any) => entry.request.url)).toContain(
      `${app.origin}/v1/pets?limit=3`,
    )
    await expect
      .poll(() => inspector.locator('[role="status"]').textContent())
      .toContain('downloaded petstore-sandbox-default.har')
  })

  test("/inspector/'s Report view grades the client and links to its requests", async () => {
    const report = inspector.locator('.psi-report')
    await expect
      .poll(() => report.locator('.psi-report-summary').textContent(), {
        timeout: 10_000,
      })
      .toMatch(/^\d+ requests since .+: 2 warnings\.$/)
    const deprecated = report.locator('.psi-finding[data-code="deprecated_endpoint"]')
    expect(await deprecated.innerText()).toContain(
      'Fix: Use GET /v1/pets with the status filter',
    )
    const missing = report.locator('.psi-finding[data-code="authentication_failed"]')
    expect(await missing.innerText()).toContain('without an API key')
    // Each finding links to its requests in the journal beside it.
    const link = deprecated.locator('a[data-request]').first()
    const id = await link.getAttribute('data-request')
    await link.click()
    expect(new URL(inspector.url()).hash).toBe(`#request-${id}`)
    const opened = inspector.locator(`#request-${id}.psi-focused`)
    await expect.poll(() => opened.count(), { timeout: 10_000 }).toBe(1)
    expect(await opened.locator('.psi-path').textContent()).toBe('/v1/pets/1')
  })

  test('/inspector/#request-<id> opens that request, in the session that holds it', async () => {
    const sent = await fetch(`${app.origin}/v1/pets?limit=2`, {
      headers: { authorization: 'Bearer sandbox-free-key.bob' },
    })
    const id = sent.headers.get('x-sandbox-request-id')
    expect(id).toMatch(/^\d+$/)
    const page = await context.newPage()
    try {
      await page.goto(`${app.origin}/inspector/#request-${id}`)
      const opened = page.locator(`#request-${id}.psi-focused`)
      await expect.poll(() => opened.count(), { timeout: 10_000 }).toBe(1)
      expect(await page.locator('input[name="session"]').inputValue()).toBe('bob')
      expect(await opened.locator('details').getAttribute('open')).not.toBeNull()
      // Another request's link, followed on the same page, opens it in its own session.
      const other = await fetch(`${app.origin}/v1/pets?limit=1`, {
        headers: { authorization: 'Bearer sandbox-free-key' },
      })
      const otherId = other.headers.get('x-sandbox-request-id')
      await page.evaluate((next) => (location.hash = `#request-${next}`), otherId)
      await expect
        .poll(() => page.locator(`#request-${otherId}.psi-focused`).count(), {
          timeout: 10_000,
        })
        .toBe(1)
      expect(await page.locator('input[name="session"]').inputValue()).toBe('')
      // One no journal holds (any more): the status line says so, and keeps saying it.
      await page.evaluate(() => (location.hash = '#request-999999'))
      const status = page.locator('[role="status"]')
      await expect
        .poll(() => status.textContent(), { timeout: 10_000 })
        .toContain('request 999999 is in no journal')
      await page.waitForTimeout(1500) // a poll later (the inspector polls every second)
      expect(await status.textContent()).toContain('request 999999 is in no journal')
    } finally {
      await page.close()
    }
  })

  test('/inspector/ has no serious or critical accessibility violation', async () => {
    expect(await seriousViolations(inspector)).toEqual([])
  })

  test('/inspector/ marks a dropped request: its badge, its advice, the Dropped filter', async () => {
    // Seed 42 drops the 1st request of the session "writer" under flaky-network (docs/faults.md).
    const headers = { authorization: 'Bearer sandbox-flaky-network-key.writer' }
    const outcome = () =>
      fetch(`${app.origin}/v1/pets?limit=1`, { headers }).then(
        (response) => response.status,
        (error: Error) => error.name,
      )
    expect(await outcome()).toBe('TypeError')
    expect(await outcome()).toBe(200)
    const page = await context.newPage()
    try {
      await page.goto(`${app.origin}/inspector/?session=writer`)
      const dropped = page.locator('.psi-entry[data-status="0"]')
      await expect.poll(() => dropped.count(), { timeout: 10_000 }).toBe(1)
      expect(await dropped.locator('.psi-badge').textContent()).toBe('dropped')
      expect(await dropped.innerText()).toContain('What to do: Dropped')
      const shown = () => page.locator('.psi-entry:not([hidden])').count()
      await page.selectOption('select[name="status"]', 'dropped')
      await expect.poll(shown, { timeout: 10_000 }).toBe(1)
      // A request that got no answer is no success.
      await page.selectOption('select[name="status"]', '2xx')
      await expect.poll(shown, { timeout: 10_000 }).toBe(1)
      expect(
        await page.locator('.psi-entry:not([hidden]) .psi-badge').textContent(),
      ).toBe('200')
      await page.selectOption('select[name="status"]', 'all')
      expect(await seriousViolations(page)).toEqual([])
    } finally {
      await page.close()
    }
  })

  test('/docs/ with more operations open still has no serious or critical violation', async () => {
    await docs.locator('#operations-Pets-createPet .opblock-summary-control').click()
    expect(await seriousViolations(docs)).toEqual([])
  })

  test('screenshots of both pages', async () => {
    mkdirSync(outDir, { recursive: true })
    // The Report view's finding opened its request (the test before): docs/report-card.md.
    await inspector.screenshot({ path: join(outDir, 'inspector-report.png') })
    // listPets with its answer: the 200 and its rate-limit headers.
    await docs.evaluate(() => {
      const top = document.querySelector(
        '#operations-Pets-listPets .live-responses-table',
      )
      window.scrollTo(0, (top?.getBoundingClientRect().top ?? 0) + window.scrollY - 120)
    })
    await docs.screenshot({ path: join(outDir, 'docs.png') })
    // The key bar: each label beside its picker.
    await docs.evaluate(() => window.scrollTo(0, 0))
    const bar = await docs.locator('.sandbox-key').boundingBox()
    await docs.screenshot({
      path: join(outDir, 'docs-key-bar.png'),
      clip: { x: 0, y: 0, width: 1280, height: Math.ceil(bar!.y + bar!.height + 16) },
    })
  })

  test(
    'every page has its icon: no page logs a failed request for one',
    async () => {
      // What the server answered to the browser's icon requests (not a page's own requests).
      const icons: string[] = []
      const seen = (req: IncomingMessage, res: ServerResponse) => {
        if (/^\/favicon\./.test(req.url ?? ''))
          res.on('finish', () => icons.push(`${res.statusCode} ${req.url}`))
      }
      app.server.on('request', seen)
      try {
        for (const [path, icon] of [
          ['/', '/favicon.svg'],
          ['/docs/', '/favicon.svg'],
          ['/inspector/', '/favicon.svg'],
          // Also served by static servers: its icon is inline, no request at all.
          ['/demo/', 'data:'],
        ] as const) {
          icons.length = 0
          const page = await context.newPage()
          const errors: string[] = []
          page.on('console', (message) => {
            if (message.type() === 'error') errors.push(message.text())
          })
          try {
            await page.goto(`${app.origin}${path}`)
            const links = await page
              .locator('link[rel="icon"]')
              .evaluateAll((found) => found.map((link) => link.getAttribute('href')))
            if (icon === 'data:') {
              expect(links, path).toEqual([
                expect.stringMatching(/^data:image\/svg\+xml,/),
              ])
              expect(icons, path).toEqual([])
            } else {
              expect(links, path).toEqual([icon])
              // The browser asks for it after the load: wait for the server's answer.
              await expect
                .poll(() => icons.length, { timeout: 10_000 })
                .toBeGreaterThan(0)
              expect(icons, path).toEqual([`200 ${icon}`])
            }
            expect(errors, path).toEqual([])
          } finally {
            await page.close()
          }
        }
      } finally {
        app.server.off('request', seen)
      }
    },
    PAGE_LOADS_TIMEOUT,
  )

  test('both pages loaded nothing from another host and broke no CSP rule', () => {
    const foreign = requested.filter(
      (url) => !url.startsWith(`${app.origin}/`) && !url.startsWith('data:'),
    )
    expect(foreign).toEqual([])
    expect(cspErrors).toEqual([])
    expect(pageErrors).toEqual([])
  })
})
