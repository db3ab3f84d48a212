import * as z from 'zod/mini'
import { MAX_LATENCY_MS } from './limits.js'
import { thousands } from './text.js'

/** Added to every /v1 response: milliseconds, or a range a delay is drawn from. */
export type Latency = number | { minMs: number; maxMs: number }

/** The rule, as messages state it. */
export const LATENCY_RULE = `milliseconds from 0 to ${thousands(MAX_LATENCY_MS)} (e.g. 250) or a range such as { "minMs": 100, "maxMs": 500 } with minMs <= maxMs`

const isMs = (value: unknown): value is number =>
  typeof value === 'number' && value >= 0 && value <= MAX_LATENCY_MS

/**
 * Whether a value is a latency the sandbox takes. NaN, negative and huge values are not:
 * a timer past 2^31 - 1 ms fires after 1 ms (Node warns of the overflow), the opposite of
 * what was asked.
 */
export function isLatency(value: unknown): value is Latency {
  if (isMs(value)) return true
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false
  const keys = Object.keys(value)
  const { minMs, maxMs } = value as Record<string, unknown>
  return (
    keys.length === 2 &&
    Object.hasOwn(value, 'minMs') &&
    Object.hasOwn(value, 'maxMs') &&
    isMs(minMs) &&
    isMs(maxMs) &&
    minMs <= maxMs
  )
}

/** The one check of a latency, for the option, a scenario file and the CLI flag. */
export const latencySchema = z.custom<Latency>(isLatency, {
  error: `must be ${LATENCY_RULE}`,
})

/** Waits a latency: its milliseconds, or a delay drawn from its range. */
export function delay(latency: Latency): Promise<void> {
  const ms =
    typeof latency === 'number'
      ? latency
      : latency.minMs + Math.random() * (latency.maxMs - latency.minMs)
  return ms <= 0 ? Promise.resolve() : new Promise((resolve) => setTimeout(resolve, ms))
}
