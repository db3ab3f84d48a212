// npm run bench: the standalone sandbox against a bare Express 5 baseline (throughput,
// latency, startup, peak RSS), the in-test runtime against a bare msw handler, and
// scale (1k, 10k, 100k pets). Prints a markdown table with the targets of issue 6 and
// writes bench/results/latest.json and latest.md. The standalone server's req/s against
// bare Express and the msw floor are reported without a verdict (issue 38): its speed
// target is instructions a request, counted by bench/instructions-per-request.js. Everything runs on 127.0.0.1 and every
// child process is killed at the end, on error and on Ctrl-C.
// Knobs (environment): BENCH_ROUNDS (3), BENCH_DURATION (3 s per autocannon run),
// BENCH_ONLY=persist (only the --persist rows of issue 14, about a minute),
// BENCH_ONLY=sessions (only the sessions rows of issue 15, bench/sessions.js).
// BENCH_ONLY=bundle (only the browser bundle sizes of issue 16, a few seconds).
// BENCH_ONLY=docs (only the /docs/ render times of issue 17, bench/docs-render.js).
// BENCH_ONLY=throughput (only the standalone server against bare Express: the GET and
// POST rows, their p99 target and req/s figures, written to bench/results/throughput.json).
// BENCH_ONLY=cold-start (only the cold start in a test file of issue 22, bench/cold-start.js,
// written to bench/results/cold-start.json; BENCH_COLD_RUNS, 9, processes of each side).
// BENCH_ONLY=startup (only the standalone server's startup against bare Express, written
// to bench/results/startup.json).
// BENCH_ONLY=coach (only what the report card and the request ids add to an in-test
// request, issue 23, bench/coach-cost.js).
// node bench/run.js neighbour, or BENCH_ONLY=neighbour (only how long a large request
// makes other clients wait, issue 36, bench/neighbour.js, about a minute; written to
// bench/results/neighbour.json).
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs'
import { createRequire } from 'node:module'
import { cpus, loadavg, release, tmpdir, totalmem } from 'node:os'
import { join } from 'node:path'
import { performance } from 'node:perf_hooks'
import { fileURLToPath } from 'node:url'
import { measureBundle } from './bundle.js'
import { evaluateDocsTargets, measureDocsRender, renderDocs } from './docs-render.js'
import {
  freePort,
  getText,
  guardChildren,
  killAll,
  peakRssMb,
  runJsonChild,
  sandboxArgs,
  startNode,
  waitFor200,
  writePets,
} from './lib/children.js'
import { runLoad } from './lib/load.js'
import { NEW_PET, PET_ID } from './lib/servers.js'
import {
  compare,
  ENDPOINTS,
  evaluateBundleTargets,
  evaluatePersistTargets,
  evaluateTargets,
  figures,
  median,
  renderBundle,
  renderMarkdown,
  renderPersist,
  SPEED_TARGET,
  TARGETS,
} from './lib/report.js'
import {
  evaluateNeighbourTargets,
  measureNeighbour,
  renderNeighbour,
} from './neighbour.js'
import {
  evaluateSessionTargets,
  measureSessions,
  renderSessions,
  sessionFigures,
} from './sessions.js'

const ROOT = fileURLToPath(new URL('..', import.meta.url))
const BENCH = join(ROOT, 'bench')
const RESULTS = join(BENCH, 'results')
const KEY = 'sandbox-enterprise-key'
const AUTH = { authorization: `Bearer ${KEY}` }
const LIST_PATH = '/v1/pets?limit=20'

const config = {
  rounds: positive(process.env.BENCH_ROUNDS, 5),
  durationS: positive(process.env.BENCH_DURATION, 2),
  warmupS: 2,
  connections: 50,
  startupRuns: 5,
  inTestRuns: 5,
  inTestRequests: 3000,
  coldStartRuns: positive(process.env.BENCH_COLD_RUNS, 9),
  scaleCounts: [1_000, 10_000, 100_000],
  scaleSamples: 500,
}

function positive(raw, fallback) {
  const value = Number(raw)
  return raw !== undefined && Number.isFinite(value) && value > 0 ? value : fallback
}

const log = (line) => process.stderr.write(`${line}\n`)

/** The servers under test, as child processes; `floor` is a reference for GET /v1/pets. */
const SERVERS = {
  bare: (port, petsFile) => [join(BENCH, 'bare-express.js'), String(port), petsFile],
  floor: (port, petsFile) => [join(BENCH, 'msw-floor.js'), String(port), petsFile],
  sandbox: (port) => sandboxArgs(ROOT, port),
  // The same with --persist: the second argument is the state file.
  persist: (port, stateFile) => sandboxArgs(ROOT, port, ['--persist', stateFile]),
}

async function startServer(kind, petsFile) {
  const port = await freePort()
  const startedAt = performance.now()
  const proc = startNode(SERVERS[kind](port, petsFile), { cwd: ROOT })
  const ms = await waitFor200(proc, port, LIST_PATH, AUTH, startedAt)
  return { kind, port, proc, ms }
}

async function measureStartup(petsFile) {
  log(`startup: ${config.startupRuns} interleaved runs of each server (+1 warm-up)`)
  const times = { bare: [], sandbox: [] }
  for (let run = 0; run <= config.startupRuns; run++) {
    for (const kind of ['bare', 'sandbox']) {
      const server = await startServer(kind, petsFile)
      await server.proc.kill()
      if (run > 0) times[kind].push(server.ms)
    }
  }
  return pairedSummary(times, 'ms')
}

/**
 * The medians of interleaved bare and sandbox runs, under `unit`, and the median of the
 * per-pair ratios: each pair ran back to back.
 */
function pairedSummary(runs, unit) {
  return {
    bare: { [unit]: median(runs.bare), runs: runs.bare },
    sandbox: { [unit]: median(runs.sandbox), runs: runs.sandbox },
    ratio: median(runs.sandbox.map((value, index) => value / runs.bare[index])),
  }
}

const LOADS = {
  listPets: { method: 'GET', path: LIST_PATH, expect: 200 },
  createPet: { method: 'POST', path: '/v1/pets', expect: 201, body: NEW_PET },
  getPet: { method: 'GET', path: `/v1/pets/${PET_ID}`, expect: 200 },
}

async function load(server, name, durationS, connections = config.connections) {
  const spec = LOADS[name]
  const run = await runLoad(
    {
      url: `http://127.0.0.1:${server.port}${spec.path}`,
      method: spec.method,
      headers: {
        ...AUTH,
        ...(spec.body ? { 'content-type': 'application/json' } : {}),
      },
      ...(spec.body ? { body: spec.body } : {}),
      connections,
    },
    durationS,
    spec.expect,
  )
  if (!server.proc.alive)
    throw new Error(`the ${server.kind} server died under load: ${server.proc.stderr}`)
  return run
}

/** The same bytes from every server, so the load compares like with like. */
async function checkSameAnswers(bare, others, path) {
  const expected = await getText(bare.port, path, AUTH)
  for (const other of others) {
    const got = await getText(other.port, path, AUTH)
    if (expected.status !== 200 || got.status !== 200 || expected.body !== got.body) {
      throw new Error(
        `GET ${path}: bare answered ${expected.status}, ${other.kind} ${got.status}, and the bodies ${expected.body === got.body ? 'match' : 'differ'}; the comparison would be meaningless`,
      )
    }
  }
}

async function measureThroughput(petsFile) {
  const bare = await startServer('bare', petsFile)
  const sandbox = await startServer('sandbox', petsFile)
  const floor = await startServer('floor', petsFile)
  // The msw floor answers GET /v1/pets only: it is the reference for that row.
  const serversFor = (name) =>
    name === 'listPets' ? [bare, sandbox, floor] : [bare, sandbox]
  try {
    await checkSameAnswers(bare, [sandbox, floor], LIST_PATH)
    await checkSameAnswers(bare, [sandbox], `/v1/pets/${PET_ID}`)
    log(`throughput: warm-up, ${config.warmupS} s per server and endpoint`)
    for (const name of Object.keys(LOADS))
      for (const server of serversFor(name)) await load(server, name, config.warmupS)
    const runs = Object.fromEntries(
      Object.keys(LOADS).map((name) => [name, { bare: [], sandbox: [], floor: [] }]),
    )
    for (let round = 1; round <= config.rounds; round++) {
      for (const name of Object.keys(LOADS)) {
        for (const server of serversFor(name)) {
          const run = await load(server, name, config.durationS)
          runs[name][server.kind].push(run)
          log(
            `  round ${round} ${ENDPOINTS[name].padEnd(22)} ${server.kind.padEnd(7)} ${run.rps.toFixed(0).padStart(6)} req/s  p50 ${run.p50} ms  p99 ${run.p99} ms${run.failures ? `  ${run.failures} NOT ${LOADS[name].expect}` : ''}`,
          )
        }
      }
    }
    const rss = {
      bare: peakRssMb(bare.proc.child.pid),
      sandbox: peakRssMb(sandbox.proc.child.pid),
    }
    rss.ratio = rss.sandbox / rss.bare
    const throughput = {}
    for (const [name, sides] of Object.entries(runs)) {
      const summary = (list) => ({
        rps: median(list.map((run) => run.rps)),
        p50: median(list.map((run) => run.p50)),
        p99: median(list.map((run) => run.p99)),
        runs: list,
      })
      // Ratios round by round, then their median: the two runs of a round are seconds
      // apart, so a slow spell of a shared machine cancels out instead of skewing one side.
      const ratios = (list) => {
        const of = (key) =>
          median(list.map((run, index) => run[key] / sides.bare[index][key]))
        return { rps: of('rps'), p50: of('p50'), p99: of('p99') }
      }
      const f = sides.floor.length > 0 ? summary(sides.floor) : undefined
      throughput[name] = {
        bare: summary(sides.bare),
        sandbox: summary(sides.sandbox),
        ratio: ratios(sides.sandbox),
        ...(f ? { floor: f, floorRatio: ratios(sides.floor) } : {}),
        failures: [...sides.bare, ...sides.sandbox, ...sides.floor].reduce(
          (sum, run) => sum + run.failures,
          0,
        ),
      }
    }
    return { throughput, rss }
  } finally {
    await Promise.all([bare.proc.kill(), sandbox.proc.kill(), floor.proc.kill()])
  }
}

/**
 * The --persist rows of issue 14, as ratios within this run: POST /v1/pets with --persist
 * and without; GET /v1/pets/{id} p99 while creates pour in, with and without; POST
 * throughput (so the cost of a create) on a state of 10,000 pets and of 1,000, each on a
 * fresh server and file. Rounds interleave the two sides.
 */
async function measurePersist(dir) {
  const stateFile = (name, count) => {
    const file = join(dir, name)
    const lines = [
      JSON.stringify({ format: 'petstore-sandbox/state@2', seed: 42, count: 50 }),
    ]
    for (let id = 1; id <= count; id++)
      lines.push(
        JSON.stringify({
          id,
          name: `Pet ${id}`,
          categoryId: 1 + (id % 5),
          status: 'available',
        }),
      )
    writeFileSync(file, `${lines.join('\n')}\n`)
    return file
  }
  const fresh = async (kind, count) =>
    startServer(
      kind,
      kind === 'persist'
        ? stateFile(`state-${count}-${Date.now()}.json`, count)
        : undefined,
    )
  const runs = {
    post: { off: [], on: [] },
    burst: { off: [], on: [] },
    scale: { small: [], big: [] },
  }
  log(`persist: ${config.rounds} interleaved rounds, ${config.durationS} s per run`)
  for (let round = 1; round <= config.rounds; round++) {
    // Fresh servers each round: the state grows with every create.
    for (const side of ['off', 'on']) {
      const server = await fresh(side === 'on' ? 'persist' : 'sandbox', 50)
      try {
        if (round === 1) await load(server, 'createPet', 1)
        const post = await load(server, 'createPet', config.durationS)
        runs.post[side].push(post)
        // The burst: 40 connections creating, 10 reading one pet, at the same time.
        const [burst, read] = await Promise.all([
          load(server, 'createPet', config.durationS, 40),
          load(server, 'getPet', config.durationS, 10),
        ])
        runs.burst[side].push({
          ...read,
          creates: burst.rps,
          createFailures: burst.failures,
        })
        log(
          `  round ${round} --persist ${side.padEnd(3)} POST ${post.rps.toFixed(0).padStart(6)} req/s; GET p99 during creates ${read.p99} ms (${burst.rps.toFixed(0)} creates/s)${post.failures + read.failures + burst.failures ? `  ${post.failures + read.failures + burst.failures} FAILED` : ''}`,
        )
      } finally {
        await server.proc.kill()
      }
    }
    for (const [size, count] of [
      ['small', 1_000],
      ['big', 10_000],
    ]) {
      const server = await fresh('persist', count)
      try {
        await load(server, 'createPet', 1)
        const run = await load(server, 'createPet', config.durationS)
        runs.scale[size].push({ ...run, count, usPerCreate: 1e6 / run.rps })
        log(
          `  round ${round} --persist on ${count.toLocaleString('en-US').padStart(6)} pets: POST ${run.rps.toFixed(0).padStart(6)} req/s`,
        )
      } finally {
        await server.proc.kill()
      }
    }
  }
  const ratio = (list, base, key) =>
    median(list.map((run, index) => run[key] / base[index][key]))
  const all = [
    ...runs.post.off,
    ...runs.post.on,
    ...runs.burst.off,
    ...runs.burst.on,
    ...runs.scale.small,
    ...runs.scale.big,
  ]
  return {
    post: {
      off: median(runs.post.off.map((run) => run.rps)),
      on: median(runs.post.on.map((run) => run.rps)),
      ratio: ratio(runs.post.on, runs.post.off, 'rps'),
      runs: runs.post,
    },
    burstGetP99: {
      off: median(runs.burst.off.map((run) => run.p99)),
      on: median(runs.burst.on.map((run) => run.p99)),
      ratio: ratio(runs.burst.on, runs.burst.off, 'p99'),
      runs: runs.burst,
    },
    createCost: {
      small: median(runs.scale.small.map((run) => run.usPerCreate)),
      big: median(runs.scale.big.map((run) => run.usPerCreate)),
      ratio: ratio(runs.scale.big, runs.scale.small, 'usPerCreate'),
      runs: runs.scale,
    },
    failures: all.reduce((sum, run) => sum + run.failures + (run.createFailures ?? 0), 0),
  }
}

async function measureInTest(petsFile) {
  log(`in-test: ${config.inTestRuns} interleaved processes of each side`)
  const us = { bare: [], sandbox: [] }
  for (let run = 0; run < config.inTestRuns; run++) {
    for (const mode of ['bare', 'sandbox']) {
      const result = await runJsonChild([
        join(BENCH, 'in-test.js'),
        mode,
        petsFile,
        String(config.inTestRequests),
      ])
      us[mode].push(result.usPerRequest)
    }
  }
  return pairedSummary(us, 'us')
}

/**
 * What the report card and the request ids cost per request (issue 23), in process:
 * bench/coach-cost.js, three processes, the median share of the in-test request time.
 */
async function measureCoach() {
  log('report card and request ids: 3 processes of bench/coach-cost.js')
  const runs = []
  for (let run = 0; run < 3; run++) {
    runs.push(await runJsonChild([join(BENCH, 'coach-cost.js'), '3000']))
  }
  const mid = (key) => median(runs.map((row) => row[key]))
  return {
    requestUs: mid('requestUs'),
    observeUs: mid('observeUs'),
    idUs: mid('idUs'),
    share: mid('share'),
    runs,
  }
}

/**
 * Cold start in a test file (issue 22): fresh processes, interleaved, of
 * bench/cold-start.js on each side; the time from spawn to exit (Node's own boot
 * included, as a test runner's fresh worker pays it) and, inside, to the checked answer.
 * One warm-up pair first, so the file system cache is as warm for both sides.
 */
async function measureColdStart(petsFile) {
  log(
    `cold start: ${config.coldStartRuns} interleaved processes of each side (+1 warm-up)`,
  )
  const runs = { bare: [], sandbox: [] }
  const inside = { bare: [], sandbox: [] }
  const cpu = { bare: [], sandbox: [] }
  for (let run = 0; run <= config.coldStartRuns; run++) {
    for (const [side, mode] of [
      ['bare', 'msw'],
      ['sandbox', 'sandbox'],
    ]) {
      const startedAt = performance.now()
      const result = await runJsonChild([join(BENCH, 'cold-start.js'), mode, petsFile])
      const wall = performance.now() - startedAt
      if (run === 0) continue
      runs[side].push(wall)
      inside[side].push(result.ms)
      cpu[side].push(result.cpuMs)
    }
  }
  const summary = pairedSummary(runs, 'ms')
  summary.answeredAt = pairedSummary(inside, 'ms')
  summary.cpu = pairedSummary(cpu, 'ms')
  log(
    `cold start: msw/node ${summary.bare.ms.toFixed(0)} ms, petstore-sandbox/node ${summary.sandbox.ms.toFixed(0)} ms (${summary.ratio.toFixed(2)}x); answered at ${summary.answeredAt.bare.ms.toFixed(0)} and ${summary.answeredAt.sandbox.ms.toFixed(0)} ms (${summary.answeredAt.ratio.toFixed(2)}x); CPU ${summary.cpu.bare.ms.toFixed(0)} and ${summary.cpu.sandbox.ms.toFixed(0)} ms (${summary.cpu.ratio.toFixed(2)}x)`,
  )
  return summary
}

async function measureScale() {
  const rows = []
  for (const count of config.scaleCounts) {
    log(`scale: ${count.toLocaleString('en-US')} pets`)
    rows.push(
      await runJsonChild([
        join(BENCH, 'scale.js'),
        String(count),
        String(config.scaleSamples),
      ]),
    )
  }
  return rows
}

function machine() {
  const require = createRequire(import.meta.url)
  const version = (name) => require(`${name}/package.json`).version
  return {
    cpuModel: cpus()[0]?.model.trim() ?? 'unknown CPU',
    cpus: cpus().length,
    loadAverage: loadavg().map((value) => Math.round(value * 100) / 100),
    memoryGb: Math.round(totalmem() / 1024 ** 3),
    os: release(),
    node: process.version,
    msw: version('msw'),
    express: version('express'),
    autocannon: version('autocannon'),
  }
}

async function main() {
  guardChildren()
  for (const file of ['dist/index.js', 'dist/node/index.js', 'dist/cli/index.js']) {
    if (!existsSync(join(ROOT, file)))
      throw new Error(`${file} is missing: run "npm run build" (npm run bench does it).`)
  }
  const started = performance.now()
  const host = machine()
  // The section to run alone: BENCH_ONLY, or the first argument (node bench/run.js neighbour).
  const only = process.argv[2] ?? process.env.BENCH_ONLY
  if (process.env.BENCH_ONLY === 'bundle') {
    const only = { date: new Date().toISOString(), machine: host, config }
    only.bundle = await measureBundle(ROOT)
    const targets = evaluateBundleTargets(only)
    mkdirSync(RESULTS, { recursive: true })
    writeFileSync(join(RESULTS, 'bundle.json'), `${JSON.stringify(only, null, 2)}\n`)
    process.stdout.write(`\n${renderBundle(only, targets)}`)
    log(`\nwritten: bench/results/bundle.json`)
    if (targets.some((target) => target.result !== 'PASS')) process.exitCode = 1
    return
  }
  if (process.env.BENCH_ONLY === 'docs') {
    const only = { date: new Date().toISOString(), machine: host, config }
    only.docs = await measureDocsRender(ROOT, log)
    only.targets = evaluateDocsTargets(only)
    mkdirSync(RESULTS, { recursive: true })
    writeFileSync(join(RESULTS, 'docs.json'), `${JSON.stringify(only, null, 2)}\n`)
    process.stdout.write(`\n${renderDocs(only, only.targets)}`)
    log(`\nwritten: bench/results/docs.json`)
    return
  }
  if (only === 'neighbour') {
    const result = { date: new Date().toISOString(), machine: host, config }
    result.neighbour = await measureNeighbour(ROOT, log)
    result.targets = evaluateNeighbourTargets(result.neighbour)
    result.durationS = (performance.now() - started) / 1000
    mkdirSync(RESULTS, { recursive: true })
    writeFileSync(join(RESULTS, 'neighbour.json'), `${JSON.stringify(result, null, 2)}\n`)
    process.stdout.write(`\n${renderNeighbour(result)}`)
    for (const target of result.targets.filter((t) => t.result !== 'PASS'))
      log(
        `${target.result} ${target.label}: ${target.value} ${target.op} ${target.limit}`,
      )
    log(`\nwritten: bench/results/neighbour.json`)
    return
  }
  const dir = mkdtempSync(join(tmpdir(), 'petstore-bench-'))
  process.on('exit', () => rmSync(dir, { recursive: true, force: true }))
  const petsFile = await writePets(dir)

  if (process.env.BENCH_ONLY === 'persist') {
    const persist = await measurePersist(dir)
    const only = { date: new Date().toISOString(), machine: host, config, persist }
    only.durationS = (performance.now() - started) / 1000
    const markdown = renderPersist(only, evaluatePersistTargets(only))
    mkdirSync(RESULTS, { recursive: true })
    writeFileSync(join(RESULTS, 'persist.json'), `${JSON.stringify(only, null, 2)}\n`)
    process.stdout.write(`\n${markdown}`)
    log(`\nwritten: bench/results/persist.json`)
    return
  }
  if (process.env.BENCH_ONLY === 'sessions') {
    const sessions = await measureSessions(ROOT, config, log)
    const only = { date: new Date().toISOString(), machine: host, config, sessions }
    only.durationS = (performance.now() - started) / 1000
    only.targets = evaluateSessionTargets(only)
    const markdown = renderSessions(only, only.targets)
    mkdirSync(RESULTS, { recursive: true })
    writeFileSync(join(RESULTS, 'sessions.json'), `${JSON.stringify(only, null, 2)}\n`)
    process.stdout.write(`\n${markdown}`)
    log(`\nwritten: bench/results/sessions.json`)
    if (only.targets.some((target) => target.result === 'INVALID')) process.exitCode = 1
    return
  }
  if (process.env.BENCH_ONLY === 'cold-start' || process.env.BENCH_ONLY === 'startup') {
    const cold = process.env.BENCH_ONLY === 'cold-start'
    const only = { date: new Date().toISOString(), machine: host, config }
    if (cold) only.coldStart = await measureColdStart(petsFile)
    else only.startup = await measureStartup(petsFile)
    only.durationS = (performance.now() - started) / 1000
    only.targets = evaluateTargets(
      only,
      TARGETS.filter((target) => target.id === (cold ? 'cold-start' : 'startup')),
    )
    mkdirSync(RESULTS, { recursive: true })
    const name = cold ? 'cold-start.json' : 'startup.json'
    writeFileSync(join(RESULTS, name), `${JSON.stringify(only, null, 2)}\n`)
    for (const target of only.targets)
      log(
        `${target.result} ${target.label}: ${target.value.toFixed(2)} ${target.op} ${target.limit}`,
      )
    log(`\nwritten: bench/results/${name}`)
    return
  }
  if (process.env.BENCH_ONLY === 'coach') {
    const only = { date: new Date().toISOString(), machine: host, config }
    only.coach = await measureCoach()
    only.targets = evaluateTargets(
      only,
      TARGETS.filter((target) => target.id === 'coach-cost'),
    )
    mkdirSync(RESULTS, { recursive: true })
    writeFileSync(join(RESULTS, 'coach.json'), `${JSON.stringify(only, null, 2)}\n`)
    const c = only.coach
    log(
      `in-test request ${c.requestUs.toFixed(1)} µs; report card observe ${c.observeUs.toFixed(3)} µs, request id ${c.idUs.toFixed(3)} µs: ${(c.share * 100).toFixed(2)}% of it`,
    )
    for (const target of only.targets)
      log(
        `${target.result} ${target.label}: ${target.value.toFixed(4)} ${target.op} ${target.limit}`,
      )
    log(`\nwritten: bench/results/coach.json`)
    return
  }
  if (process.env.BENCH_ONLY === 'throughput') {
    const { throughput, rss } = await measureThroughput(petsFile)
    const only = {
      date: new Date().toISOString(),
      machine: host,
      config,
      throughput,
      rss,
    }
    only.durationS = (performance.now() - started) / 1000
    only.targets = evaluateTargets(
      only,
      TARGETS.filter((target) => /^(list|create)-/.test(target.id)),
    )
    mkdirSync(RESULTS, { recursive: true })
    writeFileSync(join(RESULTS, 'throughput.json'), `${JSON.stringify(only, null, 2)}\n`)
    for (const [name, row] of Object.entries(throughput)) {
      log(
        `${ENDPOINTS[name].padEnd(22)} bare ${row.bare.rps.toFixed(0)} req/s, sandbox ${row.sandbox.rps.toFixed(0)} req/s (${row.ratio.rps.toFixed(2)}x), p99 ${row.sandbox.p99} ms (${row.ratio.p99.toFixed(2)}x)`,
      )
    }
    for (const target of only.targets)
      log(
        target.op === undefined
          ? `${target.result} ${target.label}: ${target.value.toFixed(2)} (no target; ${SPEED_TARGET})`
          : `${target.result} ${target.label}: ${target.value.toFixed(2)} ${target.op} ${target.limit}`,
      )
    log(`\nwritten: bench/results/throughput.json`)
    if (only.targets.some((target) => target.result === 'INVALID')) process.exitCode = 1
    return
  }
  const startup = await measureStartup(petsFile)
  const { throughput, rss } = await measureThroughput(petsFile)
  const inTest = await measureInTest(petsFile)
  const coldStart = await measureColdStart(petsFile)
  const coach = await measureCoach()
  const scale = await measureScale()
  const persist = await measurePersist(dir)
  const sessions = await measureSessions(ROOT, config, log)
  log('bundle: the browser entry over msw alone (esbuild, minified, gzipped)')
  const bundle = await measureBundle(ROOT)
  const docs = await measureDocsRender(ROOT, log)
  const neighbour = await measureNeighbour(ROOT, log)

  const results = {
    date: new Date().toISOString(),
    machine: host,
    config,
    durationS: (performance.now() - started) / 1000,
    throughput,
    startup,
    rss,
    inTest,
    coldStart,
    coach,
    scale,
    persist,
    sessions,
    bundle,
    docs,
    neighbour,
  }
  results.figures = { ...figures(results), ...sessionFigures(results) }
  const targets = [
    ...evaluateTargets(results),
    ...evaluateSessionTargets(results),
    ...evaluateDocsTargets(results),
    ...evaluateNeighbourTargets(neighbour),
  ]
  results.targets = targets

  mkdirSync(RESULTS, { recursive: true })
  const latestJson = join(RESULTS, 'latest.json')
  let previous
  if (existsSync(latestJson)) {
    try {
      previous = JSON.parse(readFileSync(latestJson, 'utf8'))
    } catch {
      log('bench/results/latest.json is not valid JSON; no comparison this time')
    }
  }
  const comparison = compare(previous, results)
  const markdown = renderMarkdown(results, targets, comparison).replace(
    '\n## Targets',
    `\n${renderSessions(results, targets)}\n${renderDocs(results, targets)}\n${renderNeighbour(results)}\n## Targets`,
  )
  writeFileSync(latestJson, `${JSON.stringify(results, null, 2)}\n`)
  writeFileSync(join(RESULTS, 'latest.md'), markdown)
  process.stdout.write(`\n${markdown}`)
  log(`\nwritten: bench/results/latest.json, bench/results/latest.md`)
  const invalid = targets.some((target) => target.result === 'INVALID')
  if (invalid) {
    log('some load runs had non-2xx answers or errors: their figures are not valid')
    process.exitCode = 1
  }
}

try {
  await main()
} catch (error) {
  process.stderr.write(`bench: ${error?.stack ?? error}\n`)
  process.exitCode = 1
} finally {
  killAll()
}
