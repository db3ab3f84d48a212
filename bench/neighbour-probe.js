// Loaded into the sandbox's server by bench/neighbour.js (node --import): the longest
// event-loop block while an operation ran. On SIGUSR2 it prints one line,
// `neighbour {"maxMs":…}`, with the longest delay since the last one, and starts again.
import { monitorEventLoopDelay } from 'node:perf_hooks'

const delay = monitorEventLoopDelay({ resolution: 5 })
delay.enable()
process.on('SIGUSR2', () => {
  const maxMs = delay.max / 1e6
  delay.reset()
  process.stdout.write(`neighbour ${JSON.stringify({ maxMs })}\n`)
})
