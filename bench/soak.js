// npm run soak: mixed traffic against the standalone sandbox app for N seconds on
// 127.0.0.1, sampling the server's memory; fails when memory keeps growing after the
// warm-up. test/hostile/soak.test.ts runs the same soak for 15 s in CI. Then, from the
// command line, the memory phases of bench/soak-give-back.js: sessions that end give
// their memory back, and a journal flood stays bounded
// (test/hostile/memory-given-back.test.ts asserts both).
//
//   node bench/soak.js [--seconds 180] [--create-rate 10] [--entry dist/express/index.js]
//                      [--json] [--leak-bytes N]
// --leak-bytes makes the server keep N bytes per request, to see the soak catch a leak.
//
// The server (bench/soak-server.js, a child process with --expose-gc) is sampled after
// a full garbage collection, so the heap figure is what it retains. The traffic, from
// autocannon in this process, is a mix of lanes, each on its own connections:
//   list      GET /v1/pets with a different limit, filter and query string each time
//   get       GET /v1/pets/{id}: found, not found, ids 0 and below, ids past 2^53
//   bad       invalid JSON, 415, 405, unknown paths, unknown keys (a new token each
//             time: they must not leave rate-limit state behind), unknown scenarios,
//             invalid NewPets, the 501 of /v1/store/orders, 404s outside /v1
//   free      the Free key far over its limit: 429s, then the temporary ban
//   tooLarge  70 KiB bodies: 413, read and dropped, the connection kept
//   create    valid NewPets at a fixed rate (--create-rate per second)
//
// Created pets are data the server must keep: the heap grows with every 201 by design,
// so the check cannot simply ask for a flat heap. Before the soak, 3,000 of the create
// lane's own requests are sent between two samples (then the data is reset) to measure
// what one pet retains, and every sample is judged as heapUsed - perPetBytes x pets.
// That cost is not exact: measured in bursts it came out at 1.3-1.4 KB, while the heap
// grew by only ~0.9 KB per pet during the soak (V8 sizes objects by allocation site and
// history). So creates are also paced (--create-rate, 10/s by default): over 180 s
// about 1,000 pets fall between the first and the last third, and even a cost wrong by
// 0.5 KB moves the verdict by 0.5 MiB, a quarter of the 2 MiB bound. A leak of the other
// lanes (the journal, the rate-limit state, per-request objects of msw, Express or the
// adapter) shows as growth of the retained heap from the first to the last third of the
// samples after the warm-up (the first 20%): 256 bytes per request fail a 15 s soak
// (--leak-bytes 256). RSS is checked too, with a looser bound: V8 and the allocator keep
// freed pages.
import { resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import autocannon from 'autocannon'
import { startSoakServer } from './lib/soak-child.js'
import { runGiveBack, runJournalFlood } from './soak-give-back.js'
const ENTERPRISE = 'Bearer sandbox-enterprise-key'
const MiB = 1024 * 1024

/** The bounds a soak must stay within; see the comment at the top. */
export const BOUNDS = {
  /** Growth of the retained heap (per-pet cost taken out), last third vs first third. */
  heapBytes: 2 * MiB,
  heapRatio: 0.05,
  /** Growth of the resident set, last third vs first third. */
  rssBytes: 24 * MiB,
  rssRatio: 0.15,
  /** The request journal keeps the last 100 requests. */
  journal: 100,
}

/**
 * Runs the soak and resolves with its figures and verdict; never throws for a failed
 * verdict (`ok: false`, `problems`), only when the server cannot be run at all.
 */
export async function runSoak({
  seconds = 180,
  createRate = 10,
  entry,
  leakBytes = 0,
  log = () => {},
} = {}) {
  const server = await startSoakServer(entry, { leakBytes })
  try {
    const origin = `http://127.0.0.1:${server.port}`
    log(`soak: server ${server.entry} on ${origin}`)

    const perPetBytes = await calibrate(server, origin)
    log(`soak: one created pet retains ~${Math.round(perPetBytes)} bytes of heap`)

    const samples = []
    const started = performance.now()
    const interval = Math.min(3000, Math.max(500, (seconds * 1000) / 60))
    const takeSample = async () => {
      const sample = await server.sample()
      samples.push({ t: (performance.now() - started) / 1000, ...sample })
    }
    await takeSample()
    const sampler = setInterval(() => void takeSample().catch(() => {}), interval)
    let lanes
    try {
      lanes = await runTraffic(origin, seconds, createRate)
    } finally {
      clearInterval(sampler)
    }
    await takeSample()
    return judge({ seconds, createRate, perPetBytes, samples, lanes })
  } finally {
    await server.stop()
  }
}

/**
 * The heap one created pet retains: 3,000 creates between two samples, then a reset.
 * The creates are the create lane's own requests (same names, same fields): a pet's
 * cost depends on its shape, and a wrong cost would hide a leak or invent one.
 */
async function calibrate(server, origin) {
  const create = (n) => {
    const { method, path, headers, body } = LANES.create.request(n)
    return fetch(`${origin}${path}`, { method, headers, body }).then((response) =>
      response.arrayBuffer(),
    )
  }
  const batch = async (from, count) => {
    for (let n = from; n < from + count; n += 50)
      await Promise.all(Array.from({ length: 50 }, (_, index) => create(n + index)))
  }
  await batch(0, 500) // JIT, the journal filled, connections open
  const before = await server.sample()
  await batch(500, 3000)
  const after = await server.sample()
  const reset = await fetch(`${origin}/__sandbox/reset`, { method: 'POST' })
  await reset.arrayBuffer()
  if (reset.status !== 200)
    throw new Error(`POST /__sandbox/reset answered ${reset.status}`)
  return Math.max(0, (after.heapUsed - before.heapUsed) / (after.pets - before.pets))
}

const LANES = {
  list: {
    connections: 6,
    request: (n) => ({
      method: 'GET',
      path: `/v1/pets?limit=${1 + (n % 100)}${['', '&status=available', '&status=sold'][n % 3]}&nonce=${n}`,
      headers: { authorization: ENTERPRISE },
    }),
  },
  get: {
    connections: 4,
    request: (n) => ({
      method: 'GET',
      path: `/v1/pets/${n % 50 === 0 ? '9007199254740993' : (n % 120) - 5}`,
      headers: { authorization: ENTERPRISE },
    }),
  },
  bad: {
    connections: 4,
    request: (n) => {
      const json = { authorization: ENTERPRISE, 'content-type': 'application/json' }
      switch (n % 9) {
        case 0:
          return {
            method: 'POST',
            path: '/v1/pets',
            headers: json,
            body: `{"name":"x${n}",`,
          }
        case 1:
          return {
            method: 'POST',
            path: '/v1/pets',
            headers: { authorization: ENTERPRISE, 'content-type': 'text/plain' },
            body: `name=x${n}`,
          }
        case 2:
          return { method: 'DELETE', path: `/v1/pets/${n}`, headers: json }
        case 3:
          return { method: 'GET', path: `/v1/unknown-${n}`, headers: json }
        case 4:
          return {
            method: 'GET',
            path: '/v1/pets',
            headers: { authorization: `Bearer unknown-${n}` },
          }
        case 5:
          return {
            method: 'GET',
            path: '/v1/pets',
            headers: { authorization: ENTERPRISE, 'x-sandbox-scenario': `nope-${n}` },
          }
        case 6:
          return {
            method: 'POST',
            path: '/v1/pets',
            headers: json,
            body: JSON.stringify({ name: '', categoryId: -n, [`field${n}`]: n }),
          }
        case 7:
          return { method: 'GET', path: '/v1/store/orders', headers: json }
        default:
          return { method: 'GET', path: `/nothing-here-${n}`, headers: {} }
      }
    },
  },
  free: {
    connections: 2,
    request: (n) => ({
      method: 'GET',
      path: `/v1/pets?limit=5&n=${n}`,
      headers: { authorization: 'Bearer sandbox-free-key' },
    }),
  },
  tooLarge: {
    connections: 2,
    request: (n) => ({
      method: 'POST',
      path: '/v1/pets',
      headers: { authorization: ENTERPRISE, 'content-type': 'application/json' },
      body: `{"name":"${String(n).padEnd(70 * 1024, 'x')}","categoryId":1}`,
    }),
  },
  create: {
    connections: 2,
    paced: true,
    request: (n) => ({
      method: 'POST',
      path: '/v1/pets',
      headers: { authorization: ENTERPRISE, 'content-type': 'application/json' },
      body: JSON.stringify({ name: `Soak pet ${n}`, categoryId: 1 + (n % 9) }),
    }),
  },
}

async function runTraffic(origin, seconds, createRate) {
  const results = await Promise.all(
    Object.entries(LANES).map(async ([name, lane]) => {
      let n = 0
      const instance = autocannon({
        url: origin,
        connections: lane.connections,
        duration: seconds,
        timeout: 10,
        ...(lane.paced ? { overallRate: createRate } : {}),
        requests: [{ setupRequest: (request) => ({ ...request, ...lane.request(n++) }) }],
      })
      // A hard bound on top of autocannon's own duration.
      const guard = setTimeout(() => instance.stop(), (seconds + 20) * 1000)
      const result = await instance
      clearTimeout(guard)
      const statuses = Object.fromEntries(
        Object.entries(result.statusCodeStats ?? {}).map(([code, entry]) => [
          code,
          entry.count,
        ]),
      )
      return [
        name,
        {
          requests: Object.values(statuses).reduce((sum, count) => sum + count, 0),
          rps: Math.round(result.requests.average),
          p99: result.latency.p99,
          errors: result.errors,
          timeouts: result.timeouts,
          statuses,
        },
      ]
    }),
  )
  return Object.fromEntries(results)
}

const median = (values) => {
  const sorted = [...values].sort((a, b) => a - b)
  const middle = sorted.length >> 1
  return sorted.length % 2 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2
}

function judge({ seconds, createRate, perPetBytes, samples, lanes }) {
  const warmup = Math.max(2, seconds * 0.2)
  const steady = samples.filter((sample) => sample.t >= warmup)
  const third = Math.max(1, Math.floor(steady.length / 3))
  const first = steady.slice(0, third)
  const last = steady.slice(-third)
  const retained = (sample) => sample.heapUsed - perPetBytes * sample.pets
  const heap = {
    first: median(first.map(retained)),
    last: median(last.map(retained)),
  }
  const rss = {
    first: median(first.map((s) => s.rss)),
    last: median(last.map((s) => s.rss)),
  }
  const external = {
    first: median(first.map((s) => s.external)),
    last: median(last.map((s) => s.external)),
  }
  const heapBound = Math.max(BOUNDS.heapBytes, heap.first * BOUNDS.heapRatio)
  const rssBound = Math.max(BOUNDS.rssBytes, rss.first * BOUNDS.rssRatio)
  const externalBound = Math.max(BOUNDS.heapBytes, external.first * BOUNDS.heapRatio)
  const requests = Object.values(lanes).reduce((sum, lane) => sum + lane.requests, 0)
  const problems = []
  if (steady.length < 6)
    problems.push(`only ${steady.length} samples after the warm-up; soak longer`)
  if (heap.last - heap.first > heapBound)
    problems.push(
      `retained heap grew by ${mb(heap.last - heap.first)} MiB (bound ${mb(heapBound)} MiB) with the created pets taken out`,
    )
  if (external.last - external.first > externalBound)
    problems.push(`external memory grew by ${mb(external.last - external.first)} MiB`)
  if (rss.last - rss.first > rssBound)
    problems.push(
      `RSS grew by ${mb(rss.last - rss.first)} MiB (bound ${mb(rssBound)} MiB)`,
    )
  const journal = Math.max(...samples.map((s) => s.journal))
  if (journal > BOUNDS.journal) problems.push(`the journal held ${journal} requests`)
  for (const [name, lane] of Object.entries(lanes)) {
    if (lane.errors || lane.timeouts)
      problems.push(
        `${name}: ${lane.errors} connection errors, ${lane.timeouts} timeouts`,
      )
    for (const code of Object.keys(lane.statuses))
      if (Number(code) >= 500 && !(name === 'bad' && code === '501'))
        problems.push(`${name}: ${lane.statuses[code]} answers ${code}`)
  }
  const createdPets = samples.at(-1).pets - samples[0].pets
  if (createdPets > createRate * (seconds + 5))
    problems.push(`${createdPets} pets created, more than the paced ${createRate}/s`)
  const expected = { free: '429', tooLarge: '413', create: '201' }
  for (const [name, code] of Object.entries(expected))
    if (!lanes[name]?.statuses[code]) problems.push(`${name}: no ${code} answers at all`)
  return {
    ok: problems.length === 0,
    problems,
    seconds,
    requests,
    rps: Math.round(requests / seconds),
    perPetBytes: Math.round(perPetBytes),
    createdPets,
    samples: samples.length,
    warmupSeconds: warmup,
    heapMiB: { first: mb(heap.first), last: mb(heap.last), bound: mb(heapBound) },
    rssMiB: { first: mb(rss.first), last: mb(rss.last), bound: mb(rssBound) },
    externalMiB: { first: mb(external.first), last: mb(external.last) },
    rawHeapMiB: {
      first: mb(median(first.map((s) => s.heapUsed))),
      last: mb(median(last.map((s) => s.heapUsed))),
    },
    peakRssMiB: mb(Math.max(...samples.map((s) => s.rss))),
    journal,
    maxConnections: Math.max(...samples.map((s) => s.connections)),
    lanes,
    // Every sample: seconds, retained heap, heap used and RSS in MiB, pets.
    series: samples.map((s) => [
      Math.round(s.t * 10) / 10,
      mb(retained(s)),
      mb(s.heapUsed),
      mb(s.rss),
      s.pets,
    ]),
  }
}

const mb = (bytes) => Math.round((bytes / MiB) * 100) / 100

function parseArgs(argv) {
  const options = {
    seconds: 180,
    createRate: 10,
    entry: undefined,
    json: false,
    leakBytes: 0,
  }
  for (let index = 0; index < argv.length; index++) {
    const flag = argv[index]
    const value = () => {
      const next = argv[++index]
      if (next === undefined) usage(`${flag} needs a value`)
      return next
    }
    if (flag === '--seconds') options.seconds = positive(flag, value())
    else if (flag === '--create-rate') options.createRate = positive(flag, value())
    else if (flag === '--entry') options.entry = value()
    else if (flag === '--json') options.json = true
    else if (flag === '--leak-bytes') options.leakBytes = positive(flag, value())
    else usage(`unknown option ${flag}`)
  }
  return options
}

function positive(flag, raw) {
  const value = Number(raw)
  if (!(value > 0 && Number.isFinite(value))) usage(`${flag} must be a positive number`)
  return value
}

function usage(problem) {
  process.stderr.write(
    `soak: ${problem}. Usage: node bench/soak.js [--seconds 180] [--create-rate 10] [--entry dist/express/index.js] [--json] [--leak-bytes N]\n`,
  )
  process.exit(2)
}

function report(result) {
  const lines = [
    `soak: ${result.seconds} s, ${result.requests.toLocaleString('en-US')} requests (${result.rps.toLocaleString('en-US')}/s), ${result.createdPets} pets created (${result.perPetBytes} bytes each), ${result.samples} samples, warm-up ${result.warmupSeconds} s`,
    `  retained heap (pets taken out)  ${result.heapMiB.first} -> ${result.heapMiB.last} MiB (bound +${result.heapMiB.bound})`,
    `  heap used                      ${result.rawHeapMiB.first} -> ${result.rawHeapMiB.last} MiB`,
    `  external                       ${result.externalMiB.first} -> ${result.externalMiB.last} MiB`,
    `  RSS                            ${result.rssMiB.first} -> ${result.rssMiB.last} MiB (bound +${result.rssMiB.bound}, peak ${result.peakRssMiB})`,
    `  journal ${result.journal} entries, at most ${result.maxConnections} connections`,
    ...Object.entries(result.lanes).map(
      ([name, lane]) =>
        `  ${name.padEnd(9)} ${String(lane.requests).padStart(8)} requests ${String(lane.rps).padStart(6)}/s p99 ${lane.p99} ms  ${Object.entries(
          lane.statuses,
        )
          .map(([code, count]) => `${code}:${count}`)
          .join(' ')}`,
    ),
    result.ok
      ? 'soak: memory flat, no 5xx, no errors'
      : `soak: FAILED\n  ${result.problems.join('\n  ')}`,
  ]
  return lines.join('\n')
}

/** The give-back and flood phases, as lines of the report. */
function reportPhases({ giveBack, flood }) {
  const line = (figure) =>
    `heap ${figure.heapMiB} MiB, RSS ${figure.rssMiB} MiB, ${figure.sessions} sessions`
  return [
    `give-back: ${giveBack.sessions} sessions (5 pets, 15 journal entries, a scenario and a clock each) and ${giveBack.imports} imports of ${giveBack.importPets.toLocaleString('en-US')} pets; half ended by DELETE, half expired, the default reset`,
    `  startup                ${line(giveBack.startup)}`,
    `  after the load         ${line(giveBack.loaded)}`,
    `  after sessions ended   ${line(giveBack.ended)} (before a forced GC)`,
    `  after GC               ${line(giveBack.collected)} (heap bound ${giveBack.heapBoundMiB} MiB)`,
    `flood: ${flood.requests.toLocaleString('en-US')} requests with ${flood.queryBytes.toLocaleString('en-US')}-byte queries over ${flood.sessions} sessions in ${flood.seconds} s, journal budget 32 MiB`,
    `  RSS ${flood.before.rssMiB} -> ${flood.after.rssMiB} MiB (+${flood.rssGrowthMiB}, bound +150), heap ${flood.before.heapMiB} -> ${flood.after.heapMiB} MiB (+${flood.heapGrowthMiB})`,
    ...[giveBack, flood].flatMap((phase) =>
      phase.problems.map((problem) => `  FAILED: ${problem}`),
    ),
  ].join('\n')
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const options = parseArgs(process.argv.slice(2))
  const log = (line) => process.stderr.write(`${line}\n`)
  const result = await runSoak({ ...options, log })
  // Then memory given back: sessions ended, and a journal flood (bench/soak-give-back.js).
  const phases = {
    giveBack: await runGiveBack({ entry: options.entry, log }),
    flood: await runJournalFlood({ entry: options.entry, log }),
  }
  const ok = result.ok && phases.giveBack.ok && phases.flood.ok
  process.stdout.write(
    `${options.json ? JSON.stringify({ ...result, ...phases, ok }) : `${report(result)}\n${reportPhases(phases)}`}\n`,
  )
  process.exitCode = ok ? 0 : 1
}
