import { barrier } from './barrier.js'
import { expect, test } from './fixtures.js'

// The companion check: the same steps as tests/sessions.spec.ts for two users, but
// without sessions (no X-Sandbox-Session header), so both workers share the default
// session. Each check passes by showing a collision that a session per worker prevents.
const USERS = ['ann', 'bob']
const SEEDED = 50
const FROZEN_AT = '2030-01-01T00:00:30Z'

for (const [rank, user] of USERS.entries()) {
  test(`${user} shares the default session with the other worker: the collisions`, async ({
    demo,
    sessionId,
  }) => {
    const meet = (phase: string) => barrier(phase, rank, USERS.length)
    const petName = `${user}'s pet`
    const otherPet = `${USERS[1 - rank]}'s pet`
    expect(sessionId).toBeUndefined()

    await demo.open()
    if (rank === 0) await demo.reset()
    await meet('ready')

    await demo.create(petName)
    await meet('created')

    await test.step("the other worker's pet shows up in this list", async () => {
      await demo.load()
      const names = await demo.petNames()
      expect(names).toHaveLength(SEEDED + 2)
      expect(names).toContain(otherPet)
    })
    await meet('listed')

    if (rank === 0) await demo.reset()
    await meet('reset')
    if (rank === 1) {
      await test.step("ann's reset removed bob's pet", async () => {
        await demo.load()
        expect(await demo.petNames()).not.toContain(petName)
        expect(await demo.petNames()).toHaveLength(SEEDED)
      })
    }

    if (rank === 1) {
      await demo.call('POST', '/__sandbox/clock', { freeze: true, now: FROZEN_AT })
      const answers = await demo.callUntil('rate_limit_exceeded', 100)
      expect(answers.at(-1)).toMatchObject({ status: 429, code: 'rate_limit_exceeded' })
      const banned = await demo.callUntil('api_key_temporarily_banned', 20)
      expect(banned.at(-1)?.code).toBe('api_key_temporarily_banned')
    }
    await meet('banned')
    if (rank === 0) {
      await test.step("bob's ignored 429s banned the key for ann too", async () => {
        const response = await demo.load()
        expect(response.status()).toBe(429)
        await expect(demo.page.locator('#rate-limit-banner')).toHaveAttribute(
          'data-code',
          'api_key_temporarily_banned',
        )
      })
      // Leave the default session as it started, for whatever uses the server next.
      await meet('checked')
      await demo.call('POST', '/__sandbox/reset')
    } else {
      await meet('checked')
    }
  })
}
