// CPU time per request of standalone servers under the same load, in interleaved runs:
// a steadier measure than req/s on a shared machine, where other work moves the
// throughput of every server but not what one request costs. Linux only (/proc).
//
//   node bench/cpu-per-request.js [server ...]
//
// A server is `bare` (bench/bare-express.js), `floor` (bench/msw-floor.js) or `sandbox`
// (this checkout's built CLI), or `sandbox=<dir>` for the built CLI of another checkout
// (a `git worktree` of the code before a change, built with `npm run build`). Default:
// floor sandbox. Each round loads every server in turn with GET /v1/pets?limit=20
// (autocannon, 50 connections); it prints each server's median CPU µs per request and
// the median of its per-round ratios to the first server. BENCH_PAIRS (rounds, default
// 7) and BENCH_REQUESTS (requests per run, default 10000) change the sizes.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { guardChildren, killAll, writePets } from './lib/children.js'
import { loadList, startServer } from './lib/servers.js'
import { median } from './lib/report.js'

const ROUNDS = Number(process.env.BENCH_PAIRS ?? 7)
const REQUESTS = Number(process.env.BENCH_REQUESTS ?? 10_000)

/** User plus system CPU ticks (1/100 s) of a process, from /proc/<pid>/stat. */
function cpuTicks(pid) {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ')
  return Number(fields[11]) + Number(fields[12])
}

const load = (port, amount) => loadList(port, amount, 50)

/** CPU µs per request of one run of `REQUESTS` requests. */
async function measure(server) {
  const before = cpuTicks(server.proc.child.pid)
  const result = await load(server.port, REQUESTS)
  const ticks = cpuTicks(server.proc.child.pid) - before
  if (result.non2xx > 0 || result.errors > 0)
    throw new Error(
      `${server.spec}: ${result.non2xx} answers not 2xx, ${result.errors} errors`,
    )
  return (ticks * 10_000) / result.requests.total
}

guardChildren()
const folder = mkdtempSync(join(tmpdir(), 'cpu-per-request-'))
try {
  const petsFile = await writePets(folder)
  const specs = process.argv.slice(2)
  const servers = []
  for (const spec of specs.length > 0 ? specs : ['floor', 'sandbox'])
    servers.push(await startServer(spec, petsFile))
  for (const server of servers) await load(server.port, REQUESTS)
  const runs = servers.map(() => [])
  for (let round = 0; round < ROUNDS; round++)
    for (const [index, server] of servers.entries())
      runs[index].push(await measure(server))
  for (const [index, server] of servers.entries()) {
    const ratios = runs[index].map((value, round) => value / runs[0][round])
    process.stdout.write(
      `${server.spec.padEnd(32)} ${median(runs[index]).toFixed(1).padStart(7)} µs CPU a request (${runs[index].map((value) => value.toFixed(0)).join(', ')}), ${median(ratios).toFixed(2)} of ${servers[0].spec}\n`,
    )
  }
} finally {
  killAll()
  rmSync(folder, { recursive: true, force: true })
}
