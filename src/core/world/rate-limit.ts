import type { HeaderMap } from '../http/reply.js'

export const MINUTE_MS = 60_000
export const DAY_MS = 86_400_000

export interface Limits {
  perMinute: number
  perDay: number
}

/** When a key that keeps sending after a 429 is banned, and for how long. */
export interface BanPolicy {
  afterIgnoredRetries: number
  durationSeconds: number
}

/** Defaults documented in docs/api.md#rate-limits. */
export const DEFAULT_BAN: BanPolicy = { afterIgnoredRetries: 10, durationSeconds: 300 }

export interface RateLimitPolicy {
  limits: Limits
  ban: BanPolicy
  /** Every window starts used up (the rate-limited scenario). */
  exhausted: boolean
}

export type RateLimitDecision =
  | { allowed: true; headers: HeaderMap }
  | {
      allowed: false
      code: 'rate_limit_exceeded' | 'api_key_temporarily_banned'
      retryAfterSeconds: number
      /** The request was sent while an earlier 429's Retry-After was still running. */
      ignoredRetryAfter: boolean
      /** This request is the one that started the ban. */
      bannedNow: boolean
      window: 'minute' | 'day'
      headers: HeaderMap
    }

interface KeyState {
  /**
   * The minute window, as minutes since the epoch: a small integer V8 keeps in the
   * object, where the window's start in epoch ms would be a boxed double.
   */
  minute: number
  minuteCount: number
  /** The day window, as days since the epoch. */
  day: number
  dayCount: number
  /** Until when the last 429 told the client to wait (epoch ms). */
  waitUntil: number
  ignored: number
  bannedUntil: number
}

/**
 * Fixed windows aligned to the clock: a minute window resets at the start of every UTC
 * minute, a day window at every UTC midnight. State is kept per API key, so it is
 * bounded by the number of keys in the fixtures.
 */
export class RateLimiter {
  // Every session has a limiter, which mostly sees one key: that key's state is kept
  // in fields, and a Map (whose table alone is 150 bytes) is made for a second key.
  #firstKey: string | undefined
  #first: KeyState | undefined
  #others: Map<string, KeyState> | undefined

  reset() {
    this.#firstKey = undefined
    this.#first = undefined
    this.#others = undefined
  }

  /** Forgets the state of every key `unwanted` names (their windows start afresh). */
  forget(unwanted: (key: string) => boolean) {
    if (this.#firstKey !== undefined && unwanted(this.#firstKey)) {
      this.#firstKey = undefined
      this.#first = undefined
    }
    if (!this.#others) return
    // A Map may lose the entry being visited while it is iterated.
    for (const key of this.#others.keys()) if (unwanted(key)) this.#others.delete(key)
  }

  /** Counts a request of `key` and decides whether it may go through. */
  check(key: string, policy: RateLimitPolicy, now: number): RateLimitDecision {
    const state = this.#roll(key, now)
    const { limits, ban } = policy

    if (state.bannedUntil > now) return this.#banned(state, limits, now, false)

    const minuteUsed = policy.exhausted ? limits.perMinute : state.minuteCount
    const minuteFull = minuteUsed >= limits.perMinute
    const dayFull = state.dayCount >= limits.perDay
    if (minuteFull || dayFull) {
      // Only a request that is itself over the limit, sent while an earlier 429's
      // Retry-After runs, counts towards the ban: a 429 that one request got through a
      // scenario header must not get the key banned by requests that go through.
      const ignoring = state.waitUntil > now
      state.ignored = ignoring ? state.ignored + 1 : 0
      if (ignoring && state.ignored >= ban.afterIgnoredRetries) {
        state.bannedUntil = now + ban.durationSeconds * 1000
        state.waitUntil = state.bannedUntil
        return this.#banned(state, limits, now, true)
      }
      // When both are used up the client can only go again once the day is over.
      const window = dayFull ? 'day' : 'minute'
      const resetAt = dayFull ? (state.day + 1) * DAY_MS : (state.minute + 1) * MINUTE_MS
      state.waitUntil = resetAt
      return this.#deny('rate_limit_exceeded', state, limits, now, resetAt, {
        ignored: ignoring,
        bannedNow: false,
        window,
      })
    }

    state.waitUntil = 0
    state.ignored = 0
    state.minuteCount++
    state.dayCount++
    return { allowed: true, headers: this.#headers(state, limits, policy.exhausted) }
  }

  /** The headers for a request that is not counted (no valid key). */
  peek(key: string | undefined, policy: RateLimitPolicy, now: number): HeaderMap {
    if (key === undefined) {
      const minuteStart = Math.floor(now / MINUTE_MS) * MINUTE_MS
      return rateLimitHeaders(
        policy.limits.perMinute,
        policy.exhausted ? 0 : policy.limits.perMinute,
        minuteStart + MINUTE_MS,
      )
    }
    const state = this.#roll(key, now)
    if (state.bannedUntil > now) {
      return rateLimitHeaders(policy.limits.perMinute, 0, state.bannedUntil)
    }
    return this.#headers(state, policy.limits, policy.exhausted)
  }

  #roll(key: string, now: number): KeyState {
    const minute = Math.floor(now / MINUTE_MS)
    const day = Math.floor(now / DAY_MS)
    let state = key === this.#firstKey ? this.#first : this.#others?.get(key)
    if (!state) {
      state = {
        minute,
        minuteCount: 0,
        day,
        dayCount: 0,
        waitUntil: 0,
        ignored: 0,
        bannedUntil: 0,
      }
      if (this.#first === undefined) {
        this.#firstKey = key
        this.#first = state
      } else {
        this.#others ??= new Map()
        this.#others.set(key, state)
      }
    }
    // The clock may be set backwards as well as forwards: any change of window resets it.
    if (state.minute !== minute) {
      state.minute = minute
      state.minuteCount = 0
    }
    if (state.day !== day) {
      state.day = day
      state.dayCount = 0
    }
    return state
  }

  /** Reports the window nearest to exhaustion (the minute window on a tie). */
  #headers(state: KeyState, limits: Limits, exhausted: boolean): HeaderMap {
    const minuteRemaining = exhausted
      ? 0
      : Math.max(0, limits.perMinute - state.minuteCount)
    const dayRemaining = Math.max(0, limits.perDay - state.dayCount)
    if (dayRemaining < minuteRemaining) {
      return rateLimitHeaders(limits.perDay, dayRemaining, (state.day + 1) * DAY_MS)
    }
    return rateLimitHeaders(
      limits.perMinute,
      minuteRemaining,
      (state.minute + 1) * MINUTE_MS,
    )
  }

  /** The answer while a key is banned: 429 until the ban ends (never extended). */
  #banned(state: KeyState, limits: Limits, now: number, bannedNow: boolean) {
    return this.#deny(
      'api_key_temporarily_banned',
      state,
      limits,
      now,
      state.bannedUntil,
      {
        ignored: true,
        bannedNow,
        window: 'minute',
      },
    )
  }

  #deny(
    code: 'rate_limit_exceeded' | 'api_key_temporarily_banned',
    _state: KeyState,
    limits: Limits,
    now: number,
    until: number,
    details: { ignored: boolean; bannedNow: boolean; window: 'minute' | 'day' },
  ): RateLimitDecision {
    const retryAfterSeconds = Math.max(1, Math.ceil((until - now) / 1000))
    const limit = details.window === 'day' ? limits.perDay : limits.perMinute
    return {
      allowed: false,
      code,
      retryAfterSeconds,
      ignoredRetryAfter: details.ignored,
      bannedNow: details.bannedNow,
      window: details.window,
      headers: {
        ...rateLimitHeaders(limit, 0, until),
        'retry-after': String(retryAfterSeconds),
      },
    }
  }
}

/** What joins a key and the scenario a header picked, in a window's key. */
export const SCENARIO_MARK = '\n'

/**
 * Which window a request of `key` counts in. A scenario picked with X-Sandbox-Scenario
 * affects that request only: when it brings rate limits of its own (`rate-limited`,
 * `rate-limit-countdown`) and is not the active scenario, its requests count in a window
 * of that key and scenario, so its 429s, ignored retries and bans never reach the key's
 * plain requests. The report card judges runs of retries in the same windows. Bounded by
 * keys × scenarios. Keys are printable ASCII: no newline.
 */
export function limitWindow(
  key: string,
  scenario: { name: string; rateLimits?: unknown },
  activeScenario: string,
): string {
  if (!scenario.rateLimits || scenario.name === activeScenario) return key
  return `${key}${SCENARIO_MARK}${scenario.name}`
}

export function rateLimitHeaders(
  limit: number,
  remaining: number,
  resetAtMs: number,
): HeaderMap {
  return {
    'x-ratelimit-limit': String(limit),
    'x-ratelimit-remaining': String(remaining),
    'x-ratelimit-reset': String(Math.ceil(resetAtMs / 1000)),
  }
}

/**
 * Forgets the windows a scenario picked by header kept (one a session defined at run
 * time is gone): a session that defines and removes scenarios under new names would
 * otherwise grow its limiter without end.
 */
export function forgetScenarioWindows(limiter: RateLimiter, name: string): void {
  const suffix = `${SCENARIO_MARK}${name}`
  limiter.forget((key) => key.endsWith(suffix))
}
