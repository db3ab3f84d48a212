// The bystander of bench/neighbour.js, in a process of its own so that the bench's own
// work (bodies of megabytes sent and read) does not delay it: it polls GET /v1/pets
// every 50 ms and, on SIGUSR2, prints `bystander [{"startedAt","ms","coreWaitMs"}, …]`,
// its requests since the last print: when each started (wall clock ms, to set beside
// the server's samples, bench/neighbour-probe.js), how long it waited for the answer,
// and how much of that this process itself waited for a core (Linux; 0 elsewhere).
import { readFileSync } from 'node:fs'
import { performance } from 'node:perf_hooks'
import { setTimeout as sleep } from 'node:timers/promises'

const [origin] = process.argv.slice(2)
const coreWaitMs = () => {
  try {
    return Number(readFileSync('/proc/thread-self/schedstat', 'utf8').split(' ')[1]) / 1e6
  } catch {
    return 0
  }
}
let waits = []
process.on('SIGUSR2', () => {
  process.stdout.write(`bystander ${JSON.stringify(waits)}\n`)
  waits = []
})
// Ready for SIGUSR2 (before its handler, the signal would end the process).
process.stdout.write('bystander-ready\n')
for (;;) {
  const waitedBefore = coreWaitMs()
  const started = performance.now()
  const answer = await fetch(`${origin}/v1/pets?limit=20`, {
    headers: { authorization: 'Bearer sandbox-enterprise-key' },
  })
  await answer.arrayBuffer()
  if (answer.status !== 200) throw new Error(`the bystander got ${answer.status}`)
  waits.push({
    startedAt: performance.timeOrigin + started,
    ms: performance.now() - started,
    coreWaitMs: coreWaitMs() - waitedBefore,
  })
  await sleep(50)
}
