import { expect, type Page, type Response } from '@playwright/test'

/** What one call made from inside the page got back. */
export interface CallResult {
  status: number
  code: string | undefined
  remaining: number | undefined
  retryAfter: number | undefined
}

const isListCall = (response: Response) =>
  response.request().method() === 'GET' && new URL(response.url()).pathname === '/v1/pets'

/**
 * The browser demo that the standalone server serves at /demo/ (examples/browser in the
 * repository), driven as a user would: its form, its buttons, its table.
 */
export class DemoPage {
  constructor(readonly page: Page) {}

  /** Opens the demo on the server; it shows the first 20 pets once ready. */
  async open() {
    const listed = this.page.waitForResponse(isListCall)
    await this.page.goto('/demo/')
    await expect(this.page.locator('body')).toHaveAttribute('data-ready', 'true')
    await expect(this.page.locator('body')).toHaveAttribute('data-mode', 'server')
    return listed
  }

  /** The names in the table, as shown. */
  petNames() {
    return this.page.locator('#pets td.name').allTextContents()
  }

  /** Lists up to `limit` pets with the Load button; gives the API's response. */
  async load(limit = '100') {
    await this.page.locator('#limit').fill(limit)
    const listed = this.page.waitForResponse(isListCall)
    await this.page.locator('#load').click()
    const response = await listed
    await expect(this.page.locator('#pets')).not.toHaveAttribute('aria-busy', 'true')
    return response
  }

  /** Adds a pet with the form and waits for the success message; gives its id. */
  async create(name: string) {
    await this.page.locator('#pet-name').fill(name)
    await this.page.locator('#pet-category').fill('1')
    await this.page.locator('#pet-status').selectOption('available')
    await this.page.locator('#create').click()
    const result = this.page.locator('#form-result.success')
    await expect(result).toContainText(`“${name}”`)
    return Number(await result.getAttribute('data-pet-id'))
  }

  /** The Reset sandbox button: POST /__sandbox/reset, then the demo lists again. */
  async reset() {
    const reset = this.page.waitForResponse(
      (response) => new URL(response.url()).pathname === '/__sandbox/reset',
    )
    const listed = this.page.waitForResponse(isListCall)
    await this.page.locator('#reset').click()
    expect((await reset).status()).toBe(200)
    await listed
    await expect(this.page.locator('#pets')).not.toHaveAttribute('aria-busy', 'true')
  }

  /** The value the "Last response" panel shows for a header. */
  shownHeader(name: string) {
    return this.page.locator(`#headers dd[data-header="${name.toLowerCase()}"]`)
  }

  /**
   * Calls the API from inside the page, as the demo's own code does (so the request
   * carries what the browser context adds, the session header included).
   */
  call(method: string, path: string, body?: unknown): Promise<CallResult> {
    return this.page
      .evaluate(callFromPage, { method, path, body, count: 1, until: null })
      .then((results) => results[0]!)
  }

  /**
   * Sends GET /v1/pets?limit=1 with the Free key from inside the page until an answer
   * has the code `until` (at most `max` requests); gives every answer.
   */
  callUntil(until: string, max: number): Promise<CallResult[]> {
    return this.page.evaluate(callFromPage, {
      method: 'GET',
      path: '/v1/pets?limit=1',
      body: undefined,
      count: max,
      until,
    })
  }
}

// Runs in the browser: fetch as the demo does it (same origin, JSON, the Free key).
async function callFromPage(args: {
  method: string
  path: string
  body: unknown
  count: number
  until: string | null
}): Promise<CallResult[]> {
  const results: CallResult[] = []
  for (let i = 0; i < args.count; i++) {
    const headers: Record<string, string> = {
      accept: 'application/json',
      authorization: 'Bearer sandbox-free-key',
    }
    if (args.body !== undefined) headers['content-type'] = 'application/json'
    const response = await fetch(args.path, {
      method: args.method,
      headers,
      ...(args.body === undefined ? {} : { body: JSON.stringify(args.body) }),
    })
    const body = (await response.json().catch(() => ({}))) as { code?: string }
    const number = (name: string) =>
      response.headers.has(name) ? Number(response.headers.get(name)) : undefined
    results.push({
      status: response.status,
      code: response.ok ? undefined : body.code,
      remaining: number('x-ratelimit-remaining'),
      retryAfter: number('retry-after'),
    })
    if (args.until !== null && body.code === args.until) break
  }
  return results
}
