// Instructions a standalone server executes per request, counted by valgrind's callgrind:
// the measure of a server's cost here that moves least with the machine's other work
// (req/s and CPU time on this 2-core VM move by 20 to 40% from run to run; the counts by
// about 3% on a quiet machine, up to 15% at a load of 6 to 12). It does not
// count the kernel's work or cache misses, so it complements `npm run bench`; it tells
// whether a change made a request cheaper, in one run. It is the standalone server's
// speed target: a GET /v1/pets?limit=20 at most 1.15x the msw floor's, in one run
// (docs/performance.md).
//
//   node bench/instructions-per-request.js [--request list|get|post] [--steady] [server ...]
//
// --steady starts every server's Node with `--predictable --no-memory-reducer`: V8 then
// compiles and collects on the main thread and starts no collection by the clock, so
// the count no longer grows with the time a request takes (a busy machine, valgrind's
// slowness) and moves less between runs; it counts the same work a request asks for,
// without V8's time-driven work (docs/performance.md, "The cost of a GET, counted").
// Every server of a run gets the same flags, and the output says which mode it counted.
//
// Needs valgrind (Debian: apt-get install -y valgrind); a contributor's tool, not part
// of `npm run bench` or CI. A server is `bare`, `floor`, `sandbox` or `sandbox=<dir>`,
// as in bench/cpu-per-request.js (default: floor sandbox); an extra environment variable
// for a server goes after a comma (`sandbox=/tmp/other,SOME_FLAG=1`, for an experiment
// switched on by it). A request is `list` (GET /v1/pets?limit=20), `get` (GET
// /v1/pets/7) or `post` (POST /v1/pets with a valid NewPet), all with the enterprise
// key; `--request list,post` (or BENCH_REQUEST=list,post) counts some of them, and by
// default each server counts every one it answers (the msw floor answers `list` only).
// Each server starts once under callgrind; for each request it takes BENCH_WARM of it
// (default 2,000) so its code is compiled, has its counters zeroed, then takes
// BENCH_REQUESTS (default 3,000) at 10 connections, every answer 2xx; the count of those
// alone, divided by the requests, is printed with its ratio to the first server that
// counted the same request. The POSTs create BENCH_WARM + BENCH_REQUESTS pets, within
// the sandbox's --max-pets (100,000 by default). About a minute and a half per server
// and request once the server is up, and a minute to start it: the default run takes
// about 6 minutes on a quiet machine.
import { execFileSync } from 'node:child_process'
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { guardChildren, killAll, writePets } from './lib/children.js'
import { answers, loadRequest, REQUESTS, startServer } from './lib/servers.js'

const WARM = Number(process.env.BENCH_WARM ?? 2_000)
const COUNTED = Number(process.env.BENCH_REQUESTS ?? 3_000)
const USAGE =
  'usage: node bench/instructions-per-request.js [--request list|get|post[,...]] [--steady] [server ...]'
/** The Node flags of --steady (see the header). */
export const STEADY_FLAGS = ['--predictable', '--no-memory-reducer']

function hasCallgrind() {
  try {
    execFileSync('callgrind_control', ['--version'], { stdio: 'ignore' })
    return true
  } catch {
    return false
  }
}

/**
 * The servers and the requests of a command line: `--request a,b` (or `--request=a,b`,
 * or BENCH_REQUEST) names the requests, every other argument is a server.
 */
export function parseArguments(argv, chosen = process.env.BENCH_REQUEST) {
  const specs = []
  let nodeFlags = []
  for (let index = 0; index < argv.length; index++) {
    const arg = argv[index]
    if (arg === '--steady') nodeFlags = STEADY_FLAGS
    else if (arg === '--request') chosen = argv[++index] ?? ''
    else if (arg.startsWith('--request=')) chosen = arg.slice('--request='.length)
    else if (arg.startsWith('-')) throw new Error(`${arg}: not an option here. ${USAGE}`)
    else specs.push(arg)
  }
  const names = chosen === undefined ? Object.keys(REQUESTS) : chosen.split(',')
  const unknown = names.filter((name) => !Object.hasOwn(REQUESTS, name))
  if (names.length === 0 || unknown.length > 0)
    throw new Error(
      `--request ${chosen}: a request is list, get or post, or several joined by commas (list,post). ${USAGE}`,
    )
  return { specs: specs.length > 0 ? specs : ['floor', 'sandbox'], names, nodeFlags }
}

const load = (port, name, amount) => loadRequest(port, name, amount, 10)

/** The callgrind dumps of server `index` in `folder`. */
const dumpsOf = (folder, index) =>
  readdirSync(folder).filter((name) => name.startsWith(`callgrind.${index}.`))

/**
 * Instructions per request of one server for each request in `names`, from its own
 * callgrind dumps: one process, one warm-up, zeroing and dump per request.
 */
async function count(spec, index, names, petsFile, folder, report, nodeFlags) {
  const [server, ...pairs] = spec.split(',')
  const out = join(folder, `callgrind.${index}`)
  process.stderr.write(`${spec}: starting under callgrind\n`)
  const { port, proc } = await startServer(server, petsFile, {
    wrap: [
      'valgrind',
      '--tool=callgrind',
      `--callgrind-out-file=${out}`,
      '--dump-instr=no',
    ],
    nodeFlags,
    env: Object.fromEntries(pairs.map((pair) => [...pair.split('='), ''].slice(0, 2))),
    wait: { intervalMs: 500, timeoutMs: 300_000 },
  })
  try {
    const pid = String(proc.child.pid)
    for (const name of names) {
      const { label } = REQUESTS[name]
      await load(port, name, WARM)
      execFileSync('callgrind_control', ['--zero', pid], { stdio: 'ignore' })
      const result = await load(port, name, COUNTED)
      if (result.non2xx > 0 || result.errors > 0 || result.timeouts > 0)
        throw new Error(
          `${spec}, ${label}: ${result.non2xx} answers not 2xx (status codes: ${JSON.stringify(Object.fromEntries(Object.entries(result.statusCodeStats ?? {}).map(([code, entry]) => [code, entry.count])))}), ${result.errors} errors, ${result.timeouts} timeouts${name === 'post' ? '; a world keeps at most --max-pets created pets (100,000 by default): lower BENCH_WARM or BENCH_REQUESTS' : ''}`,
        )
      const before = new Set(dumpsOf(folder, index))
      execFileSync('callgrind_control', ['--dump', pid], { stdio: 'ignore' })
      const dump = dumpsOf(folder, index).find((file) => !before.has(file))
      if (dump === undefined)
        throw new Error(`${spec}, ${label}: callgrind wrote no dump`)
      const totals = /^(?:summary|totals): (\d+)/m.exec(
        readFileSync(join(folder, dump), 'utf8'),
      )
      if (!totals) throw new Error(`${spec}, ${label}: no totals in ${dump}`)
      report(spec, name, Number(totals[1]) / result.requests.total)
    }
  } finally {
    await proc.kill()
  }
}

async function main() {
  const { specs, names, nodeFlags } = parseArguments(process.argv.slice(2))
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
    process.stdout.write(
      nodeFlags.length > 0
        ? `mode: steady (node ${nodeFlags.join(' ')})\n`
        : 'mode: default (V8 as Node starts it; add --steady for a count that moves less with load)\n',
    )
    // The first count of each request, the one the others are compared with.
    const first = {}
    const report = (spec, name, perRequest) => {
      first[name] ??= { spec, perRequest }
      const ratio =
        first[name].spec === spec
          ? ''
          : `, ${(perRequest / first[name].perRequest).toFixed(2)} of ${first[name].spec}`
      process.stdout.write(
        `${spec.padEnd(28)} ${REQUESTS[name].label.padEnd(22)} ${Math.round(perRequest).toLocaleString('en-US').padStart(9)} instructions a request${ratio}\n`,
      )
    }
    for (const [index, spec] of specs.entries()) {
      const served = names.filter((name) => answers(spec, name))
      for (const name of names.filter((name) => !served.includes(name)))
        process.stderr.write(
          `${spec}: answers GET /v1/pets?limit=20 only, so its ${REQUESTS[name].label} is not counted\n`,
        )
      if (served.length > 0)
        await count(spec, index, served, petsFile, folder, report, nodeFlags)
    }
  } finally {
    killAll()
    rmSync(folder, { recursive: true, force: true })
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  try {
    await main()
  } catch (error) {
    process.stderr.write(
      `bench/instructions-per-request.js: ${error?.message ?? error}\n`,
    )
    process.exitCode = 1
  }
}
