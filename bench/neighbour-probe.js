// Loaded into the sandbox's server by bench/neighbour.js (node --import): the longest
// event-loop block while an operation ran, the longest garbage-collection pause (a
// block that is one is the collector's, not the sandbox's slices), and how long the
// event-loop thread waited for a core (runnable, but the machine ran something else:
// Linux's /proc/thread-self/schedstat, its second field), sampled every 5 ms as
// [wall clock ms, waited ms so far] so that the bench can tell, for each of the
// bystander's requests, how much of its wait was the machine's and not the server's
// work. On SIGUSR2 it prints one line, `neighbour {"maxMs":…,"gcMs":…,"coreWaits":[…]}`,
// with the figures since the last one, and starts again.
import { readFileSync } from 'node:fs'
import { monitorEventLoopDelay, performance, PerformanceObserver } from 'node:perf_hooks'

const delay = monitorEventLoopDelay({ resolution: 5 })
delay.enable()
let gcMs = 0
new PerformanceObserver((list) => {
  for (const entry of list.getEntries()) gcMs = Math.max(gcMs, entry.duration)
}).observe({ entryTypes: ['gc'] })

/** Milliseconds this thread has waited for a core since it started; undefined off Linux. */
function coreWaitMs() {
  try {
    return Number(readFileSync('/proc/thread-self/schedstat', 'utf8').split(' ')[1]) / 1e6
  } catch {
    return undefined
  }
}
let coreWaits = []
const sample = () => {
  const waited = coreWaitMs()
  if (waited !== undefined)
    coreWaits.push([performance.timeOrigin + performance.now(), waited])
}
setInterval(sample, 5).unref()
process.on('SIGUSR2', () => {
  sample()
  const maxMs = delay.max / 1e6
  delay.reset()
  process.stdout.write(`neighbour ${JSON.stringify({ maxMs, gcMs, coreWaits })}\n`)
  gcMs = 0
  coreWaits = []
  sample()
})
