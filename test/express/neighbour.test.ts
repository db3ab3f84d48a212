import { createSandbox } from 'petstore-sandbox'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { startApp } from './start-app.js'

// Issue 36: no body answers 500, and a large request's work yields to other requests
// (docs/performance.md#neighbours). Wall times are the bench's (node bench/run.js
// neighbour); these assert the answers, and that the work yields.

let app: Awaited<ReturnType<typeof startApp>>
let data: Awaited<ReturnType<ReturnType<typeof createSandbox>['exportSession']>>
beforeAll(async () => {
  app = await startApp({ seed: 42, count: 5 })
  data = await app.sandbox.exportSession()
})
afterAll(() => app.close())

/**
 * Each request on a connection of its own. These bodies are megabytes, built and judged in
 * this one process, server and client alike: on a loaded machine the event loop stops for
 * seconds, the server's keep-alive timer (5 s) and fetch's pool both expire meanwhile,
 * and fetch could send the next body on a pooled socket the server then closes ("other
 * side closed" after 9.6 MB written, at load 9). Connection reuse is not what these tests
 * hold; every answer is.
 */
const FRESH_CONNECTION = { connection: 'close' }
const send = (method: string, path: string, body: string) =>
  fetch(`${app.origin}${path}`, {
    method,
    headers: { 'content-type': 'application/json', ...FRESH_CONNECTION },
    body,
  })

describe('no body answers 500', () => {
  test.each([20_000, 300_000])(
    'an import whose journal is %i wrong entries is 400 naming the field',
    async (length) => {
      const answer = await send(
        'POST',
        '/__sandbox/sessions',
        JSON.stringify({
          id: `j${length}`,
          from: { ...data, journal: Array(length).fill({}) },
        }),
      )
      expect(answer.status).toBe(400)
      const body = await answer.json()
      expect(body.code).toBe('validation_failed')
      expect(body.message).toMatch(
        length === 20_000
          ? /^Invalid body: from\.journal\[0\]\.id is required/
          : /^Invalid body: from\.journal must have at most 100000 item\(s\)/,
      )
      expect(app.sandbox.sessions().map((session) => session.id)).not.toContain(
        `j${length}`,
      )
    },
  )

  test('a body nested 4 million levels deep is 400, and so is one nested 65 levels', async () => {
    for (const depth of [4_000_000, 65]) {
      const deep = `${'['.repeat(depth)}${']'.repeat(depth)}`
      const answer = await send('POST', '/__sandbox/sessions', `{"from":${deep}}`)
      expect(answer.status).toBe(400)
      expect(await answer.json()).toMatchObject({
        code: 'validation_failed',
        message: expect.stringContaining('more than 64 levels deep'),
      })
    }
  })

  test('a body with a list of more than 500,000 items is 400 saying so, and 500,000 are read', async () => {
    const list = (length: number) =>
      `{"id":"objects","from":{"format":"petstore-sandbox/session@1","journal":[${Array(length).fill('{}').join(',')}]}}`
    const over = await send('POST', '/__sandbox/sessions', list(500_001))
    expect(over.status).toBe(400)
    expect(await over.json()).toMatchObject({
      code: 'validation_failed',
      message: expect.stringContaining('holds more than 500,000 items'),
    })
    // At the bound, the body is read and the import judged (its fields are missing).
    const at = await send('POST', '/__sandbox/sessions', list(500_000))
    expect(at.status).toBe(400)
    expect((await at.json()).message).toMatch(/^Invalid body: from\.session is required/)
  })

  test('a scenario whose data.pets are 20,000 wrong pets is 400 naming the first', async () => {
    const answer = await send(
      'PUT',
      '/__sandbox/scenarios/many',
      JSON.stringify({ description: 'x', data: { pets: Array(20_000).fill({}) } }),
    )
    expect(answer.status).toBe(400)
    expect((await answer.json()).message).toMatch(/data\.pets\[0\]\.name is required/)
  })

  test('an import whose scenario has a record of 200,000 entries is 400', async () => {
    const plans = Object.fromEntries(
      Array.from({ length: 200_000 }, (_, i) => [`p${i}`, 1]),
    )
    const answer = await send(
      'POST',
      '/__sandbox/sessions',
      JSON.stringify({
        id: 'wide',
        from: {
          ...data,
          scenarios: [{ name: 'wide', description: 'x', rateLimits: { plans } }],
        },
      }),
    )
    expect(answer.status).toBe(400)
    const { message } = await answer.json()
    expect(message).toMatch(
      /^Invalid body: from\.scenarios\[0\] holds more than 10,000 values/,
    )
    expect(message).toContain('name only the operations, plans and keys it changes')
  })

  test('a scenario defined at run time with more than 10,000 values is 400 saying what to do', async () => {
    const answer = await send(
      'PUT',
      '/__sandbox/scenarios/wide',
      JSON.stringify({
        description: 'x',
        rateLimits: { plans: { p: Array(10_001).fill(0) } },
      }),
    )
    expect(answer.status).toBe(400)
    expect(await answer.json()).toMatchObject({
      code: 'validation_failed',
      message: expect.stringMatching(
        /the scenario holds more than 10,000 values besides data\.pets .*seed many pets with data\.count/,
      ),
    })
  })
})

describe('a large request yields to others', () => {
  test('an import and an export of 20,000 pets let other tasks run while they work', async () => {
    const big = await createSandbox({ count: 20_000 }).exportSession()
    const body = JSON.stringify({ id: 'big', from: big })
    let ticks = 0
    const ticking = setInterval(() => ticks++, 0)
    try {
      const made = await send('POST', '/__sandbox/sessions', body)
      expect(made.status).toBe(201)
      // Parsed, checked and restored in slices, each followed by a task.
      expect(ticks).toBeGreaterThanOrEqual(10)
      ticks = 0
      const exported = await fetch(`${app.origin}/__sandbox/export`, {
        headers: { 'x-sandbox-session': 'big', ...FRESH_CONNECTION },
      })
      const text = await exported.text()
      expect(ticks).toBeGreaterThanOrEqual(3)
      const again = JSON.parse(text)
      expect(again.pets).toEqual(big.pets)
      // The text JSON.stringify writes of the same export (whose clock has moved on).
      const same = await app.sandbox.exportSession('big')
      expect(text === JSON.stringify({ ...same, clock: again.clock })).toBe(true)
    } finally {
      clearInterval(ticking)
    }
  })

  test('two imports of one id at once: one makes it, the other is 409', async () => {
    const body = JSON.stringify({
      id: 'twice',
      from: await createSandbox({ count: 5_000 }).exportSession(),
    })
    const answers = await Promise.all([
      send('POST', '/__sandbox/sessions', body),
      send('POST', '/__sandbox/sessions', body),
    ])
    expect(answers.map((answer) => answer.status).sort()).toEqual([201, 409])
  })

  test('an import into a session deleted meanwhile leaves nothing behind', async () => {
    const body = JSON.stringify({
      id: 'gone',
      from: await createSandbox({ count: 20_000 }).exportSession(),
    })
    const importing = send('POST', '/__sandbox/sessions', body)
    // Deleted as soon as it exists, while its pets are restored in slices.
    while (!app.sandbox.sessions().some((session) => session.id === 'gone')) {
      await new Promise((resolve) => setTimeout(resolve, 0))
    }
    const deleted = await fetch(`${app.origin}/__sandbox/sessions/gone`, {
      method: 'DELETE',
      headers: FRESH_CONNECTION,
    })
    expect(deleted.status).toBe(204)
    const answer = await importing
    expect(answer.status).toBe(400)
    expect((await answer.json()).message).toContain('the session ended')
    expect(app.sandbox.sessions().map((session) => session.id)).not.toContain('gone')
  })
})
