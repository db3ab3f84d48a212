// One autocannon run with a hard bound on top of its own duration, summed up the way
// every section of the bench reads it.
import { clearTimeout, setTimeout } from 'node:timers'
import autocannon from 'autocannon'

/**
 * Runs autocannon with `options` (url, method, headers, body, connections) for
 * `durationS`; an answer other than `expect` counts as a failure, as do errors and
 * timeouts.
 * @example
 * await runLoad({ url: 'http://127.0.0.1:4010/v1/pets', connections: 50 }, 2, 200)
 */
export async function runLoad(options, durationS, expect) {
  const instance = autocannon({ ...options, duration: durationS, timeout: 10 })
  const guard = setTimeout(() => instance.stop(), (durationS + 15) * 1000)
  const result = await instance
  clearTimeout(guard)
  const codes = result.statusCodeStats ?? {}
  const total = Object.values(codes).reduce((sum, entry) => sum + entry.count, 0)
  return {
    rps: result.requests.average,
    p50: result.latency.p50,
    p99: result.latency.p99,
    requests: total,
    failures: total - (codes[expect]?.count ?? 0) + result.errors + result.timeouts,
    statusCodes: Object.fromEntries(
      Object.entries(codes).map(([code, entry]) => [code, entry.count]),
    ),
  }
}
