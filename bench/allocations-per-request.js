// Bytes a standalone server allocates per request, and where, from V8's sampling heap
// profiler with collected objects included: what the young generation's collections
// (and so the tail latency under load) pay for. Like bench/instructions-per-request.js
// it tells whether a change made a request cheaper, in one run; `npm run bench` has the
// targets.
//
//   node bench/allocations-per-request.js [server ...]
//
// A server is `bare`, `floor`, `sandbox` or `sandbox=<dir>`, as in the other
// per-request tools (default: bare floor sandbox). Each takes BENCH_WARM requests
// (default 3,000) so its code is compiled, then BENCH_REQUESTS (default 5,000) of
// GET /v1/pets?limit=20 at 10 connections, sampled; printed: bytes a request, the ratio
// to the first server, and the functions that allocate most themselves (BENCH_TOP, 12).
// A contributor's tool (half a minute), not part of `npm run bench` or CI.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { setTimeout as sleep } from 'node:timers/promises'
import { guardChildren, killAll, writePets } from './lib/children.js'
import { loadList, startServer } from './lib/servers.js'

const WARM = Number(process.env.BENCH_WARM ?? 3_000)
const REQUESTS = Number(process.env.BENCH_REQUESTS ?? 5_000)
const TOP = Number(process.env.BENCH_TOP ?? 12)
const SAMPLER = fileURLToPath(new URL('lib/heap-sampler.js', import.meta.url))

/** The profile of one server's sampled requests. */
async function sample(spec, index, petsFile, folder) {
  const out = join(folder, `heap.${index}.json`)
  const { port, proc } = await startServer(spec, petsFile, {
    env: {
      NODE_OPTIONS: `${process.env.NODE_OPTIONS ?? ''} --import=${SAMPLER}`.trim(),
      HEAP_WARM: String(WARM),
      HEAP_REQUESTS: String(REQUESTS),
      HEAP_OUT: out,
    },
  })
  try {
    // The first request of the startup check counts too: the rest of the warm-up and
    // every sampled request come from here, one more to stop the sampling.
    await loadList(port, WARM, 10)
    const result = await loadList(port, REQUESTS + 1, 10)
    if (result.non2xx > 0 || result.errors > 0)
      throw new Error(
        `${spec}: ${result.non2xx} answers not 2xx, ${result.errors} errors`,
      )
    for (let waited = 0; waited < 5_000; waited += 50) {
      try {
        const profile = JSON.parse(readFileSync(out, 'utf8'))
        if (profile.error) throw new Error(`${spec}: ${profile.error}`)
        return profile
      } catch (error) {
        if (error.code !== 'ENOENT' && !(error instanceof SyntaxError)) throw error
        await sleep(50)
      }
    }
    throw new Error(`${spec}: the sampler wrote no profile`)
  } finally {
    await proc.kill()
  }
}

/** Total sampled bytes, and the bytes each function allocated itself, by name and place. */
function summarise(profile) {
  const own = new Map()
  let total = 0
  const walk = (node) => {
    const { functionName, url, lineNumber } = node.callFrame
    const name = `${functionName || '(anonymous)'} ${url.split('/').slice(-2).join('/')}:${lineNumber + 1}`
    total += node.selfSize
    own.set(name, (own.get(name) ?? 0) + node.selfSize)
    for (const child of node.children) walk(child)
  }
  walk(profile.head)
  return { total, own: [...own].sort((a, b) => b[1] - a[1]) }
}

guardChildren()
const folder = mkdtempSync(join(tmpdir(), 'allocations-'))
try {
  const petsFile = await writePets(folder)
  const specs = process.argv.slice(2)
  let first
  for (const [index, spec] of (specs.length > 0
    ? specs
    : ['bare', 'floor', 'sandbox']
  ).entries()) {
    const { total, own } = summarise(await sample(spec, index, petsFile, folder))
    const perRequest = total / REQUESTS
    first ??= perRequest
    process.stdout.write(
      `${spec.padEnd(40)} ${(perRequest / 1024).toFixed(1).padStart(6)} KB a request, ${(perRequest / first).toFixed(2)} of the first\n`,
    )
    for (const [name, bytes] of own.slice(0, TOP))
      process.stdout.write(
        `  ${String(Math.round(bytes / REQUESTS)).padStart(6)} B  ${name}\n`,
      )
  }
} finally {
  killAll()
  rmSync(folder, { recursive: true, force: true })
}
