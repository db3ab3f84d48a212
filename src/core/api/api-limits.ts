import { fail, type Failure } from '../http/api-errors.js'
import { howToLeave, type KnownKey } from './auth.js'
import type { Plan } from '../data/fixtures.js'
import { hasOwnName, ownValue } from '../common/own-names.js'
import {
  DEFAULT_BAN,
  limitWindow,
  type RateLimitDecision,
  type RateLimitPolicy,
} from '../world/rate-limit.js'
import type { HeaderMap } from '../http/reply.js'
import type { Scenario } from '../scenarios/scenarios.js'
import type { SandboxWorld } from '../world/world.js'

// The rate limits of the v1 path: which policy and window a request counts in, its
// headers when it is not counted, and the words of a 429.

/** The rate-limit headers of a request that is not counted: its key's, or the Free plan's. */
export function peekHeaders(
  world: SandboxWorld,
  scenario: Scenario,
  known: KnownKey | undefined,
) {
  const plan = known ? { name: known.planName, plan: known.plan } : world.anonymousPlan
  const policy = policyFor(scenario, plan.plan, plan.name)
  const window = known ? windowKey(world, known.key, scenario) : undefined
  return world.limiter.peek(window, policy, world.clock.now())
}

/**
 * The rate-limit headers of an answer given before a request could be read (a 431, 408
 * or 400 of the standalone server): the anonymous plan's minute window under the active
 * scenario, not counted, as for every request without a valid key.
 */
export function anonymousRateLimitHeaders(world: SandboxWorld): HeaderMap {
  return peekHeaders(world, world.activeScenario(), undefined)
}

function windowKey(world: SandboxWorld, key: string, scenario: Scenario): string {
  return limitWindow(key, scenario, world.activeScenario().name)
}

/**
 * The rate-limit headers of a request answered before the limiter (a path that is not
 * one, a method the path does not take): a valid key's request counts while its window
 * has room, and the answer stays the refusal (never a 429, nor a step towards a ban);
 * other requests only show the window as it stands.
 */
export function countWhileRoom(
  world: SandboxWorld,
  scenario: Scenario,
  known: KnownKey | undefined,
  counted: boolean,
): HeaderMap {
  const headers = peekHeaders(world, scenario, known)
  if (!counted || !known || Number(headers['x-ratelimit-remaining']) <= 0) return headers
  return checkLimit(world, scenario, known, world.clock.now()).headers
}

/** A 429 as the API words it, beside the limiter's decision. */
type LimitDecision =
  | Extract<RateLimitDecision, { allowed: true }>
  | (Extract<RateLimitDecision, { allowed: false }> & { failure: Failure })

/**
 * Counts a request of `key` against its plan (or the scenario's limits) and, when it is
 * over, the failure that says by whose limit, for how long, and what the ban needs.
 */
export function checkLimit(
  world: SandboxWorld,
  scenario: Scenario,
  key: KnownKey,
  now: number,
): LimitDecision {
  const policy = policyFor(scenario, key.plan, key.planName)
  const decision = world.limiter.check(windowKey(world, key.key, scenario), policy, now)
  if (decision.allowed) return decision
  const message =
    decision.code === 'api_key_temporarily_banned'
      ? `This API key is temporarily banned for sending requests while a 429 asked it to wait. Wait ${decision.retryAfterSeconds} s (Retry-After) and back off exponentially after every 429. In the sandbox, POST /__sandbox/reset${world.sessionId === undefined ? '' : ` sent with X-Sandbox-Session: ${world.sessionId}`} lifts the ban at once (so does advancing the clock).`
      : `Rate limit exceeded: ${limitHolder(scenario, key)} allows ${decision.window === 'day' ? `${policy.limits.perDay} requests a day` : `${policy.limits.perMinute} requests a minute`}${policy.exhausted ? `, and the scenario "${scenario.name}" starts every minute window used up (${howToLeave(scenario, key, world.sessionId)})` : ''}. Retry after ${decision.retryAfterSeconds} s (Retry-After); requests sent before then count towards a temporary ban of the key (after ${policy.ban.afterIgnoredRetries}).`
  return { ...decision, failure: fail(decision.code, message) }
}

/** Who sets the limit a 429 names: the key's plan, or the scenario that overrides it. */
function limitHolder(scenario: Scenario, key: KnownKey) {
  if (hasOwnName(scenario.rateLimits?.plans, key.planName)) {
    return `the scenario "${scenario.name}" (for the ${key.plan.label ?? key.planName} plan)`
  }
  return `the ${key.plan.label ?? key.planName} plan`
}

function policyFor(scenario: Scenario, plan: Plan, planName: string): RateLimitPolicy {
  const override = ownValue(scenario.rateLimits?.plans, planName)
  return {
    limits: override ?? plan,
    ban: scenario.rateLimits?.ban ?? DEFAULT_BAN,
    exhausted: scenario.rateLimits?.exhausted ?? false,
  }
}
