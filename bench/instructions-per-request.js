// Instructions a standalone server executes per request, counted by valgrind's callgrind:
// the one measure of a server's cost here that does not move with the machine's other
// work (req/s and CPU time on this 2-core VM move by 20% from run to run). It does not
// count the kernel's work or cache misses, so it complements `npm run bench`, which has
// the targets; it tells whether a change made a request cheaper, in one run.
//
//   node bench/instructions-per-request.js [server ...]
//
// Needs valgrind (Debian: apt-get install -y valgrind); a contributor's tool, not part
// of `npm run bench` or CI. A server is `bare`, `floor`, `sandbox` or `sandbox=<dir>`,
// as in bench/cpu-per-request.js (default: floor sandbox); an extra environment variable
// for a server goes after a comma (`sandbox=/tmp/other,SOME_FLAG=1`, for an experiment
// switched on by it). Each server runs under callgrind, takes BENCH_WARM requests
// (default 2,000) so its code is compiled, has its counters zeroed, then takes
// BENCH_REQUESTS (default 3,000) of GET /v1/pets?limit=20 at 10 connections; the count
// of those alone, divided by the requests, is printed with its ratio to the first server.
// About a minute and a half per server.
import { execFileSync } from 'node:child_process'
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { guardChildren, killAll, writePets } from './lib/children.js'
import { loadList, startServer } from './lib/servers.js'

const WARM = Number(process.env.BENCH_WARM ?? 2_000)
const REQUESTS = Number(process.env.BENCH_REQUESTS ?? 3_000)

function hasCallgrind() {
  try {
    execFileSync('callgrind_control', ['--version'], { stdio: 'ignore' })
    return true
  } catch {
    return false
  }
}

const load = (port, amount) => loadList(port, amount, 10)

/** Instructions per request of one server, from its own callgrind dump. */
async function count(spec, index, petsFile, folder) {
  const [server, ...pairs] = spec.split(',')
  const out = join(folder, `callgrind.${index}`)
  const { port, proc } = await startServer(server, petsFile, {
    wrap: [
      'valgrind',
      '--tool=callgrind',
      `--callgrind-out-file=${out}`,
      '--dump-instr=no',
    ],
    env: Object.fromEntries(pairs.map((pair) => [...pair.split('='), ''].slice(0, 2))),
    wait: { intervalMs: 500, timeoutMs: 300_000 },
  })
  try {
    await load(port, WARM)
    const pid = String(proc.child.pid)
    execFileSync('callgrind_control', ['--zero', pid], { stdio: 'ignore' })
    const result = await load(port, REQUESTS)
    if (result.non2xx > 0 || result.errors > 0)
      throw new Error(
        `${spec}: ${result.non2xx} answers not 2xx, ${result.errors} errors`,
      )
    execFileSync('callgrind_control', ['--dump', pid], { stdio: 'ignore' })
    const dump = readdirSync(folder).find((name) =>
      name.startsWith(`callgrind.${index}.`),
    )
    if (dump === undefined) throw new Error(`${spec}: callgrind wrote no dump`)
    const totals = /^(?:summary|totals): (\d+)/m.exec(
      readFileSync(join(folder, dump), 'utf8'),
    )
    if (!totals) throw new Error(`${spec}: no totals in ${dump}`)
    return Number(totals[1]) / result.requests.total
  } finally {
    await proc.kill()
  }
}

if (!hasCallgrind()) {
  process.stderr.write(
    'bench/instructions-per-request.js needs valgrind: apt-get install -y valgrind\n',
  )
  process.exit(1)
}
guardChildren()
const folder = mkdtempSync(join(tmpdir(), 'instructions-'))
try {
  const petsFile = await writePets(folder)
  const specs = process.argv.slice(2)
  const counts = []
  for (const [index, spec] of (specs.length > 0
    ? specs
    : ['floor', 'sandbox']
  ).entries()) {
    const perRequest = await count(spec, index, petsFile, folder)
    counts.push(perRequest)
    process.stdout.write(
      `${spec.padEnd(40)} ${Math.round(perRequest).toLocaleString('en-US').padStart(9)} instructions a request, ${(perRequest / counts[0]).toFixed(2)} of the first\n`,
    )
  }
} finally {
  killAll()
  rmSync(folder, { recursive: true, force: true })
}
