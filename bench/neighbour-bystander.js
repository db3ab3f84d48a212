// The bystander of bench/neighbour.js, in a process of its own so that the bench's own
// work (bodies of megabytes sent and read) does not delay it: it polls GET /v1/pets
// every 50 ms and, on SIGUSR2, prints `bystander [<wait in ms>, …]`, the waits since the
// last print.
import { performance } from 'node:perf_hooks'
import { setTimeout as sleep } from 'node:timers/promises'

const [origin] = process.argv.slice(2)
let waits = []
process.on('SIGUSR2', () => {
  process.stdout.write(`bystander ${JSON.stringify(waits)}\n`)
  waits = []
})
for (;;) {
  const started = performance.now()
  const answer = await fetch(`${origin}/v1/pets?limit=20`, {
    headers: { authorization: 'Bearer sandbox-enterprise-key' },
  })
  await answer.arrayBuffer()
  if (answer.status !== 200) throw new Error(`the bystander got ${answer.status}`)
  waits.push(performance.now() - started)
  await sleep(50)
}
