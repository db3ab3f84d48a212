import { execFileSync } from 'node:child_process'
import { existsSync, mkdirSync, readFileSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { getResponse } from 'msw'
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core'
import { afterAll, beforeAll, inject, describe, expect, test } from 'vitest'
import { validateHar } from '../har-schema/validate-har.js'
import { browserPath, LAUNCH_ARGS } from './find-browser.js'
import { demoDir, serveDemo, type Served } from './serve-demo.js'
import { createSandbox, type Pet } from 'petstore-sandbox'

// Drives the demo page (examples/browser, built into dist/demo) in Debian's Chromium with
// the sandbox running in msw's service worker, as msw's own test/browser does.

const root = fileURLToPath(new URL('../..', import.meta.url))
const screenshotPath = join(root, 'test-output/browser-demo.png')
const KEY = 'sandbox-free-key'

/** What the Node runtime answers for the same seed: the same handlers, no browser. */
async function nodePets(query: string): Promise<Pet[]> {
  const sandbox = createSandbox({ seed: 42 })
  const request = new Request(`http://localhost/v1/pets${query}`, {
    headers: { authorization: `Bearer ${KEY}` },
  })
  const response = await getResponse(sandbox.handlers, request)
  expect(response?.status).toBe(200)
  return (await response?.json()) as Pet[]
}

const shownPets = (page: Page) =>
  page
    .locator('#pets tr[data-pet]')
    .evaluateAll((rows) =>
      rows.map((row) => JSON.parse((row as HTMLElement).dataset.pet ?? '')),
    )

const header = (page: Page, name: string) =>
  page.locator(`#headers dd[data-header="${name}"]`)

let browser: Browser

beforeAll(async () => {
  if (!existsSync(join(demoDir, 'index.html'))) {
    execFileSync(process.execPath, [join(root, 'scripts/build-demo.js')], {
      stdio: 'inherit',
    })
  }
  browser = await chromium.launch({
    executablePath: browserPath(inject('browserSearch')),
    args: LAUNCH_ARGS,
  })
})

afterAll(async () => {
  await browser?.close()
})

async function stop(served: Served | undefined) {
  if (!served) return
  served.server.closeAllConnections()
  await new Promise((done) => served.server.close(done))
}

/** A fresh context (no service worker from an earlier page) on the demo, started and ready. */
async function openDemo(served: Served, query: string) {
  const context = await browser.newContext({ viewport: { width: 1280, height: 960 } })
  const page = await context.newPage()
  const pageErrors: string[] = []
  const apiResponses: Array<{ url: string; fromServiceWorker: boolean }> = []
  page.on('pageerror', (error) => pageErrors.push(error.message))
  page.on('response', (response) => {
    const { pathname } = new URL(response.url())
    if (pathname.startsWith('/v1/') || pathname.startsWith('/__sandbox')) {
      apiResponses.push({
        url: response.url(),
        fromServiceWorker: response.fromServiceWorker(),
      })
    }
  })
  await page.goto(`${served.origin}/${query}`)
  await page.waitForSelector('body:is([data-ready="true"], [data-ready="failed"])')
  const ready = await page.locator('body').getAttribute('data-ready')
  expect(ready, await page.locator('#runtime').innerText()).toBe('true')
  return { context, page, pageErrors, apiResponses }
}

const apiPaths = (paths: string[]) =>
  paths.filter((path) => path.startsWith('/v1') || path.startsWith('/__sandbox'))

describe('the demo on the service worker (?mode=worker)', () => {
  let static_: Served | undefined
  let context: BrowserContext | undefined
  let page: Page
  let pageErrors: string[]
  let apiResponses: Array<{ url: string; fromServiceWorker: boolean }>

  beforeAll(async () => {
    static_ = await serveDemo()
    ;({ context, page, pageErrors, apiResponses } = await openDemo(
      static_,
      '?mode=worker&seed=42&quiet',
    ))
  })

  afterAll(async () => {
    await context?.close()
    await stop(static_)
  })

  test('the worker answers: the page is controlled and the static server never sees the API', async () => {
    const controller = await page.evaluate(
      () => navigator.serviceWorker.controller?.scriptURL,
    )
    expect(controller).toBe(`${static_?.origin}/mockServiceWorker.js`)
    await expect
      .poll(() => page.locator('#runtime').innerText())
      .toContain('Service worker')
    expect(apiResponses.length).toBeGreaterThan(0)
    expect(apiResponses.filter((response) => !response.fromServiceWorker)).toEqual([])
    expect(apiPaths(static_?.paths ?? [])).toEqual([])
  })

  test('the first page of pets is the one the Node runtime returns for seed 42', async () => {
    const expected = await nodePets('')
    expect(expected).toHaveLength(20)
    expect(await shownPets(page)).toEqual(expected)
    await expect.poll(() => header(page, 'x-ratelimit-limit').innerText()).toBe('60')
    expect(await header(page, 'x-ratelimit-remaining').innerText()).toMatch(/^\d+$/)
  })

  test('filters by status and limit, and shows the API validation error of a bad limit', async () => {
    await page.selectOption('#status-filter', 'sold')
    await page.waitForSelector('#list-meta[data-status="sold"]')
    const sold = await shownPets(page)
    expect(sold).toEqual(await nodePets('?status=sold'))
    expect(sold.length).toBeGreaterThan(0)
    expect(sold.every((pet) => pet.status === 'sold')).toBe(true)

    await page.selectOption('#status-filter', '')
    await page.waitForSelector('#list-meta[data-status=""]')
    await page.fill('#limit', '5')
    await page.click('#load')
    await page.waitForSelector('#list-meta[data-count="5"]')
    expect(await shownPets(page)).toEqual(await nodePets('?limit=5'))

    await page.fill('#limit', '0')
    await page.click('#load')
    await expect
      .poll(() => page.locator('#list-error').innerText())
      .toContain('validation_failed')
    expect(await page.locator('#list-error').innerText()).toContain('limit')
    expect(await page.locator('#last-status').innerText()).toBe('400 Bad Request')
    await page.fill('#limit', '20')
    await page.click('#load')
    await page.waitForSelector('#list-meta[data-count="20"]')
  })

  test('adds a pet, then shows the validation errors of the Error body', async () => {
    await page.fill('#pet-name', 'Biscuit')
    await page.fill('#pet-category', '2')
    await page.selectOption('#pet-status', 'available')
    await page.click('#create')
    await page.waitForSelector('#form-result.success')
    expect(await page.locator('#form-result').innerText()).toContain('“Biscuit”')
    expect(await page.locator('#last-status').innerText()).toBe('201 Created')
    const id = Number(await page.locator('#form-result').getAttribute('data-pet-id'))
    expect(id).toBeGreaterThan(50)

    // The new pet is in the store the page reads, not a copy in the page.
    await page.fill('#limit', '100')
    await page.click('#load')
    await page.waitForSelector(`#pets tr[data-pet-id="${id}"]`)

    await page.fill('#pet-category', 'two')
    await page.click('#create')
    await page.waitForSelector('#form-result.error')
    const message = await page.locator('#form-result').innerText()
    expect(message).toContain('validation_failed')
    expect(message).toContain('name')
    expect(await page.locator('#pet-name').getAttribute('aria-invalid')).toBe('true')
    expect(await page.locator('#pet-category').getAttribute('aria-invalid')).toBe('true')
    expect(await page.locator('#last-status').innerText()).toBe('400 Bad Request')
    await page.fill('#limit', '20')
    await page.click('#load')
    await page.waitForSelector('#list-meta[data-count="20"]')
  })

  test('shows the deprecation headers of getPet', async () => {
    await page.locator('#pets tr[data-pet-id="1"] button').click()
    await page.waitForSelector('#pet-details:not(.hidden)')
    await expect
      .poll(() => page.locator('#last-request').innerText())
      .toContain('/v1/pets/1')
    expect(await header(page, 'deprecation').innerText()).toMatch(/^@\d+$/)
    expect(await header(page, 'sunset').innerText()).toContain('2030')
  })

  test('switches to rate-limited and handles the 429 with the Retry-After countdown', async () => {
    // Retry-After counts to the end of the minute window; a frozen sandbox clock at the
    // start of a minute makes it 60 s whatever the wall clock says.
    const clock = await page.evaluate(async () => {
      const response = await fetch('/__sandbox/clock', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ now: '2030-06-01T12:00:00Z', freeze: true }),
      })
      return response.status
    })
    expect(clock).toBe(200)
    const listBefore = await shownPets(page)
    await page.selectOption('#scenario', 'rate-limited')
    await page.waitForSelector('#rate-limit-banner:not(.hidden)')
    const retryAfter = Number(
      await page.locator('#rate-limit-banner').getAttribute('data-retry-after'),
    )
    expect(retryAfter).toBe(60)
    expect(await page.locator('#rate-limit-banner').getAttribute('data-code')).toBe(
      'rate_limit_exceeded',
    )
    expect(await page.locator('#last-status').innerText()).toBe('429 Too Many Requests')
    expect(await header(page, 'retry-after').innerText()).toBe(`${retryAfter} s`)
    expect(await header(page, 'x-ratelimit-remaining').innerText()).toBe('0')
    const left = Number(await page.locator('#countdown').innerText())
    expect(left).toBeGreaterThan(0)
    expect(left).toBeLessThanOrEqual(retryAfter)
    // Graceful: no retry before Retry-After (that would earn a ban), and the last list stays.
    expect(await page.locator('#load').isDisabled()).toBe(true)
    expect(await page.locator('#create').isDisabled()).toBe(true)
    expect(await shownPets(page)).toEqual(listBefore)

    mkdirSync(resolve(screenshotPath, '..'), { recursive: true })
    await page.screenshot({ path: screenshotPath, fullPage: true })

    await page.selectOption('#scenario', 'default')
    await page.waitForSelector('#rate-limit-banner', { state: 'hidden' })
    await page.waitForSelector('#load:not([disabled])')
    expect(await page.locator('#last-status').innerText()).toBe('200 OK')
  })

  test("openInspector(worker), loaded on the first click, shows the page's requests in a panel, live", async () => {
    await page.click('#open-inspector')
    const panel = page.locator('aside[data-petstore-inspector]')
    const entries = panel.locator('.psi-entry')
    await expect.poll(() => entries.count(), { timeout: 10_000 }).toBeGreaterThan(3)
    expect(await entries.first().innerText()).toContain('/v1/pets')
    const before = await entries.count()
    // The panel covers the right of the page: a request of the page's own code.
    await page.evaluate(() =>
      fetch('/v1/pets?limit=2', { headers: { authorization: 'Bearer sandbox-pro-key' } }),
    )
    await expect.poll(() => entries.count(), { timeout: 10_000 }).toBeGreaterThan(before)
    // Its downloads come from the worker's sandbox in the page, not from a server.
    for (const [label, name] of [
      ['Download session', 'petstore-sandbox-default.session.json'],
      ['Download HAR', 'petstore-sandbox-default.har'],
    ]) {
      const [file] = await Promise.all([
        page.waitForEvent('download'),
        panel.getByRole('button', { name: label }).click(),
      ])
      expect(file.suggestedFilename()).toBe(name)
      const data = JSON.parse(readFileSync(await file.path(), 'utf8'))
      if (label === 'Download HAR') expect(validateHar(data)).toEqual([])
      else expect(data.format).toBe('petstore-sandbox/session@1')
    }
    await panel.getByRole('button', { name: 'Close the inspector' }).click()
    expect(await panel.count()).toBe(0)
  })

  test('after a ban, the banner says the key is banned, until when, and what to do', async () => {
    // Another client of the same key ignores the 429's Retry-After until the key is banned.
    const codes = await page.evaluate(async () => {
      const put = await fetch('/__sandbox/scenario', {
        method: 'PUT',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ name: 'rate-limited' }),
      })
      const seen = [String(put.status)]
      for (
        let sent = 0;
        sent < 20 && !seen.includes('api_key_temporarily_banned');
        sent++
      ) {
        const response = await fetch('/v1/pets?limit=1', {
          headers: { authorization: 'Bearer sandbox-free-key' },
        })
        seen.push(((await response.json()) as { code?: string }).code ?? '200')
      }
      return seen
    })
    expect(codes[0]).toBe('200')
    expect(codes).toContain('api_key_temporarily_banned')
    expect(await page.locator('#api-key').inputValue()).toBe(KEY)
    await page.click('#load')
    const banner = page.locator('#rate-limit-banner')
    await expect
      .poll(() => banner.getAttribute('data-code'), { timeout: 10_000 })
      .toBe('api_key_temporarily_banned')
    const seconds = Number(await banner.getAttribute('data-retry-after'))
    expect(seconds).toBeGreaterThan(0)
    expect(await page.locator('#rate-limit-title').innerText()).toBe(
      'API key temporarily banned',
    )
    const message = await page.locator('#rate-limit-message').innerText()
    expect(message).toMatch(
      new RegExp(
        `^429 api_key_temporarily_banned The key ${KEY} is banned until about \\d\\d:\\d\\d:\\d\\d UTC \\(${seconds} s, Retry-After\\)`,
      ),
    )
    expect(message).toContain('Reset lifts the ban at once')
    // Not the warning of a 429 before the ban: the ban is here already.
    expect(message).not.toContain('counts towards a temporary ban')
    expect(await page.locator('#load').isDisabled()).toBe(true)

    // Reset lifts it: the default scenario, the page usable again.
    await page.click('#reset')
    await page.waitForSelector('#rate-limit-banner', { state: 'hidden' })
    await expect.poll(() => page.locator('#last-status').innerText()).toBe('200 OK')
  })

  test('after everything, the static server still never saw /v1 or the control API', () => {
    const seen = static_?.paths ?? []
    expect(seen).toContain('/mockServiceWorker.js')
    expect(apiPaths(seen)).toEqual([])
    expect(apiResponses.filter((response) => !response.fromServiceWorker)).toEqual([])
    expect(pageErrors).toEqual([])
  })
})

describe('the same page against a server (no ?mode: it finds the API on its origin)', () => {
  let served: Served | undefined
  let context: BrowserContext | undefined

  beforeAll(async () => {
    served = await serveDemo(createSandbox({ seed: 42 }))
  })

  afterAll(async () => {
    await context?.close()
    await stop(served)
  })

  test('lists the same first page over HTTP, with no service worker', async () => {
    if (!served) throw new Error('The server did not start.')
    const opened = await openDemo(served, '')
    context = opened.context
    const { page } = opened
    expect(await page.locator('body').getAttribute('data-mode')).toBe('server')
    expect(await page.locator('#runtime').innerText()).toContain('Standalone server')
    expect(await page.evaluate(() => navigator.serviceWorker.controller)).toBeNull()
    expect(await shownPets(page)).toEqual(await nodePets(''))
    expect(served.paths).toContain('/v1/pets')
    expect(served.paths).not.toContain('/mockServiceWorker.js')
    expect(opened.apiResponses.filter((response) => response.fromServiceWorker)).toEqual(
      [],
    )
    expect(opened.pageErrors).toEqual([])
  })
})
