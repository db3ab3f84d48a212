import * as z from 'zod/mini'
import { MAX_LATENCY_MS } from '../common/limits.js'
import { thousands } from '../common/text.js'

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

/**
 * The client's end of a request, where a server adapter has one (Node's ServerResponse,
 * which is destroyed and emits `close` when the client hangs up before the answer).
 */
export interface ClientConnection {
  readonly destroyed: boolean
  once(event: 'close', listener: () => void): unknown
  removeListener(event: 'close', listener: () => void): unknown
}

/**
 * Waits a latency: its milliseconds, or a delay drawn from its range. The wait ends when
 * `client` hangs up: nobody is left to answer, and a request waiting out a minute's
 * latency would hold its body and answer that long for nothing (a shared server could
 * be filled with requests sent and abandoned).
 */
export function delay(latency: Latency, client?: ClientConnection): Promise<void> {
  const ms =
    typeof latency === 'number'
      ? latency
      : latency.minMs + Math.random() * (latency.maxMs - latency.minMs)
  if (ms <= 0 || client?.destroyed) return Promise.resolve()
  return new Promise((resolve) => {
    const done = () => {
      clearTimeout(timer)
      client?.removeListener('close', done)
      resolve()
    }
    const timer = setTimeout(done, ms)
    client?.once('close', done)
  })
}
