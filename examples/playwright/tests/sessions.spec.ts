import { barrier } from './barrier.js'
import { expect, test } from './fixtures.js'

// Four users of the browser demo, one a worker, all at once against one sandbox, each in
// its own session (tests/fixtures.ts). The steps meet at barriers, so every worker's
// reset, create and rate-limit exhaustion happens while the others have pets, windows
// and bans of their own: the checks show none of it reaches another worker.
const USERS = ['ann', 'bob', 'cat', 'dan']
const SEEDED = 50 // the server's default --count
// A minute of its own for each session's rate-limit window: frozen, 30 s before its end.
const FROZEN_AT = '2030-01-01T00:00:30Z'

for (const [rank, user] of USERS.entries()) {
  test(`${user} lists, creates, resets and hits the rate limit in a session of its own`, async ({
    demo,
    sessionId,
  }) => {
    const meet = (phase: string) => barrier(phase, rank, USERS.length)
    const petName = `${user}'s pet`
    const othersPets = USERS.filter((other) => other !== user).map((o) => `${o}'s pet`)
    expect(sessionId).toMatch(/^worker-\d+$/)

    await test.step('open the demo and start from the seeded data', async () => {
      const first = await demo.open()
      expect(first.status()).toBe(200)
      await expect(demo.page.locator('#pets tr')).toHaveCount(20)
      await demo.reset()
    })
    await meet('ready')

    await test.step('create a pet and see it listed', async () => {
      await demo.create(petName)
      await demo.load()
      expect(await demo.petNames()).toContain(petName)
    })
    await meet('created')

    await test.step("every worker has created one: this list has only this worker's", async () => {
      await demo.load()
      const names = await demo.petNames()
      expect(names).toHaveLength(SEEDED + 1)
      expect(names).toContain(petName)
      for (const other of othersPets) expect(names).not.toContain(other)
    })
    await meet('listed')

    const resets = rank % 2 === 0
    if (resets) {
      await test.step('reset (ann and cat): this session is back to the seeded data', async () => {
        await demo.reset()
        await demo.load()
        expect(await demo.petNames()).toHaveLength(SEEDED)
      })
    }
    await meet('reset')
    if (!resets) {
      await test.step("the others' resets (bob and dan): this pet is still here", async () => {
        await demo.load()
        expect(await demo.petNames()).toContain(petName)
      })
    }

    const exhaustAndBan = async () => {
      await demo.call('POST', '/__sandbox/clock', { freeze: true, now: FROZEN_AT })
      // The Free plan's 60 a minute, each one counted down by this session alone: a
      // request of another worker in this window would make a gap.
      const answers = await demo.callUntil('rate_limit_exceeded', 100)
      const granted = answers.filter((answer) => answer.status === 200)
      expect(granted.map((answer) => answer.remaining)).toEqual(
        Array.from({ length: 60 }, (_, i) => 59 - i),
      )
      expect(answers.at(-1)).toMatchObject({ status: 429, remaining: 0, retryAfter: 30 })

      // The demo shows the 429 and pauses its buttons for the Retry-After.
      const response = await demo.load()
      expect(response.status()).toBe(429)
      const banner = demo.page.locator('#rate-limit-banner')
      await expect(banner).toBeVisible()
      await expect(banner).toHaveAttribute('data-code', 'rate_limit_exceeded')
      await expect(banner).toHaveAttribute('data-retry-after', '30')
      await expect(demo.page.locator('#load')).toBeDisabled()

      // Ignoring Retry-After: the 11th request over the limit bans the key (5 minutes).
      const ignored = await demo.callUntil('api_key_temporarily_banned', 20)
      expect(ignored.map((answer) => answer.code)).toEqual([
        ...Array<string>(8).fill('rate_limit_exceeded'),
        'api_key_temporarily_banned',
      ])
      expect(ignored.at(-1)?.retryAfter).toBe(300)
      await demo.page.reload()
      await expect(banner).toHaveAttribute('data-code', 'api_key_temporarily_banned')
    }

    // Half the workers get their key banned first; then the other half find theirs
    // untouched and use all of its 60 requests themselves.
    if (!resets) {
      await test.step(
        'exhaust the Free limit to a 429, then the ban (bob and dan)',
        exhaustAndBan,
      )
    }
    await meet('banned')
    if (resets) {
      await test.step("the others' bans (ann and cat): this key still works", async () => {
        const response = await demo.load()
        expect(response.status()).toBe(200)
        await expect(demo.page.locator('#rate-limit-banner')).toBeHidden()
      })
      await test.step(
        'exhaust the Free limit to a 429, then the ban (ann and cat)',
        exhaustAndBan,
      )
    }
  })
}
