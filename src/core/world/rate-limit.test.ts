import { expect, test } from 'vitest'
import { RateLimiter, type RateLimitPolicy } from './rate-limit.js'

const policy: RateLimitPolicy = {
  limits: { perMinute: 3, perDay: 5 },
  ban: { afterIgnoredRetries: 2, durationSeconds: 100 },
  exhausted: false,
}
const at = (iso: string) => Date.parse(iso)

test('lets exactly the limit through in a window and reports the nearer window', () => {
  const limiter = new RateLimiter()
  const now = at('2027-01-01T00:00:10Z')
  const results = [1, 2, 3, 4].map(() => limiter.check('k', policy, now))
  expect(results.map((result) => result.allowed)).toEqual([true, true, true, false])
  expect(results[2]?.headers).toEqual({
    'x-ratelimit-limit': '3',
    'x-ratelimit-remaining': '0',
    'x-ratelimit-reset': String(at('2027-01-01T00:01:00Z') / 1000),
  })
  const next = limiter.check('k', policy, at('2027-01-01T00:01:00Z'))
  // 4 of 5 used today, 1 of 3 this minute: the day window is nearer to exhaustion.
  expect(next.headers['x-ratelimit-limit']).toBe('5')
  expect(next.headers['x-ratelimit-remaining']).toBe('1')
})

test('bans after the configured number of ignored retries, then lets the key go', () => {
  const limiter = new RateLimiter()
  const now = at('2027-01-01T00:00:50Z')
  for (let index = 0; index < 3; index++) limiter.check('k', policy, now)
  const over = limiter.check('k', policy, now)
  expect(over).toMatchObject({
    allowed: false,
    code: 'rate_limit_exceeded',
    retryAfterSeconds: 10,
    ignoredRetryAfter: false,
  })
  expect(limiter.check('k', policy, now + 1000)).toMatchObject({
    code: 'rate_limit_exceeded',
    ignoredRetryAfter: true,
  })
  expect(limiter.check('k', policy, now + 2000)).toMatchObject({
    code: 'api_key_temporarily_banned',
    bannedNow: true,
    retryAfterSeconds: 100,
  })
  expect(limiter.check('k', policy, now + 52_000)).toMatchObject({
    code: 'api_key_temporarily_banned',
    retryAfterSeconds: 50,
  })
  expect(limiter.check('k', policy, now + 102_000).allowed).toBe(true)
})

test('keys have separate windows; peek never counts', () => {
  const limiter = new RateLimiter()
  const now = at('2027-01-01T00:00:00Z')
  limiter.check('a', policy, now)
  expect(limiter.peek('a', policy, now)['x-ratelimit-remaining']).toBe('2')
  expect(limiter.peek('a', policy, now)['x-ratelimit-remaining']).toBe('2')
  expect(limiter.check('b', policy, now).headers['x-ratelimit-remaining']).toBe('2')
  expect(limiter.peek(undefined, policy, now)['x-ratelimit-remaining']).toBe('3')
})

test('every key keeps its own window, the first as the later ones, until reset', () => {
  const limiter = new RateLimiter()
  const now = at('2027-01-01T00:00:00Z')
  const remaining = (key: string) =>
    limiter.peek(key, policy, now)['x-ratelimit-remaining']
  for (const [key, times] of [
    ['a', 1],
    ['b', 2],
    ['c', 3],
    ['a', 1],
  ] as const) {
    for (let index = 0; index < times; index++) limiter.check(key, policy, now)
  }
  expect(['a', 'b', 'c', 'd'].map(remaining)).toEqual(['1', '1', '0', '3'])
  expect(limiter.check('c', policy, now).allowed).toBe(false)
  limiter.reset()
  expect(['a', 'b', 'c'].map(remaining)).toEqual(['3', '3', '3'])
  expect(limiter.check('c', policy, now).allowed).toBe(true)
})

test('an exhausted policy denies from the first request', () => {
  const limiter = new RateLimiter()
  const decision = limiter.check(
    'k',
    { ...policy, exhausted: true },
    at('2027-01-01T00:00:45Z'),
  )
  expect(decision).toMatchObject({
    allowed: false,
    code: 'rate_limit_exceeded',
    retryAfterSeconds: 15,
  })
})

test('a request that goes through clears the wait: a 429 from a one-off stricter policy never leads to a ban', () => {
  const limiter = new RateLimiter()
  const now = at('2027-01-01T00:00:10Z')
  expect(limiter.check('k', { ...policy, exhausted: true }, now).allowed).toBe(false)
  const results = Array.from({ length: 3 }, () => limiter.check('k', policy, now))
  expect(results.map((result) => result.allowed)).toEqual([true, true, true])
  const over = limiter.check('k', policy, now)
  expect(over).toMatchObject({ code: 'rate_limit_exceeded', ignoredRetryAfter: false })
})
