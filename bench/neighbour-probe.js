// Loaded into the sandbox's server by bench/neighbour.js (node --import): the longest
// event-loop block while an operation ran, and the longest garbage-collection pause (a
// block that is one is the collector's, not the sandbox's slices). On SIGUSR2 it prints
// one line, `neighbour {"maxMs":…,"gcMs":…}`, with the longest since the last one, and
// starts again.
import { monitorEventLoopDelay, PerformanceObserver } from 'node:perf_hooks'

const delay = monitorEventLoopDelay({ resolution: 5 })
delay.enable()
let gcMs = 0
new PerformanceObserver((list) => {
  for (const entry of list.getEntries()) gcMs = Math.max(gcMs, entry.duration)
}).observe({ entryTypes: ['gc'] })
process.on('SIGUSR2', () => {
  const maxMs = delay.max / 1e6
  delay.reset()
  process.stdout.write(`neighbour ${JSON.stringify({ maxMs, gcMs })}\n`)
  gcMs = 0
})
