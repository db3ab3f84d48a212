import { join } from 'node:path'
import { expect, test } from 'vitest'
import { ROOT } from '../hostile/express-bundle.js'

// What `npm run bench` judges (bench/lib/report.js) and what bench/instructions-per-request.js
// counts (issue 38): the standalone server's req/s against bare Express and the msw floor
// are reported without a verdict, since req/s moves by 20 to 40% between runs here; its
// speed target is the instruction count. Every other target keeps its verdict.

interface Run {
  rps: number
  p50: number
  p99: number
}
interface Side extends Run {
  runs: Run[]
}
interface Row {
  bare: Side
  sandbox: Side
  floor?: Side
  ratio: Run
  floorRatio?: Run
  failures: number
}
interface Target {
  id: string
  value: number
  op?: string
  limit?: number
  result: string
}
interface ReportModule {
  TARGETS: { id: string; op?: string }[]
  evaluateTargets(results: unknown, targets?: unknown[]): Target[]
  renderMarkdown(results: unknown, targets: Target[], comparison?: unknown): string
}
interface InstructionsModule {
  parseArguments(
    argv: string[],
    chosen?: string,
  ): { specs: string[]; names: string[]; nodeFlags: string[] }
}
interface ServersModule {
  answers(spec: string, name: string): boolean
}

const report = async () =>
  (await import(join(ROOT, 'bench', 'lib', 'report.js'))) as ReportModule
const instructions = async () =>
  (await import(join(ROOT, 'bench', 'instructions-per-request.js'))) as InstructionsModule
const servers = async () =>
  (await import(join(ROOT, 'bench', 'lib', 'servers.js'))) as ServersModule

const side = (rps: number, p99: number): Side => ({
  rps,
  p50: 4,
  p99,
  runs: [{ rps, p50: 4, p99 }],
})

/** A run where the sandbox is far below bare Express and the floor in req/s. */
function results({ p99Ratio = 1.2, failures = 0 } = {}) {
  const row = (bare: number, sandbox: number, floor?: number): Row => ({
    bare: side(bare, 10),
    sandbox: side(sandbox, 10 * p99Ratio),
    ...(floor === undefined
      ? {}
      : { floor: side(floor, 10), floorRatio: { rps: floor / bare, p50: 1, p99: 1 } }),
    ratio: { rps: sandbox / bare, p50: 1, p99: p99Ratio },
    failures,
  })
  return {
    date: '2026-11-27T00:00:00.000Z',
    machine: { cpus: 2, cpuModel: 'test CPU', memoryGb: 8, os: 'x', node: 'v20' },
    config: { connections: 50, durationS: 2, rounds: 1, startupRuns: 5, inTestRuns: 5 },
    durationS: 60,
    throughput: {
      listPets: row(6000, 1800, 6000),
      createPet: row(5000, 1000),
      getPet: row(6000, 2000),
    },
    startup: { bare: { ms: 150 }, sandbox: { ms: 200 }, ratio: 1.33 },
    rss: { bare: 80, sandbox: 120, ratio: 1.5 },
    inTest: { bare: { us: 700 }, sandbox: { us: 700 }, ratio: 1 },
    coldStart: {
      bare: { ms: 300 },
      sandbox: { ms: 330 },
      ratio: 1.1,
      cpu: { bare: { ms: 300 }, sandbox: { ms: 330 }, ratio: 1.1 },
    },
    coach: { share: 0.01 },
    scale: [
      {
        count: 100_000,
        seedMs: 1000,
        peakRssMb: 200,
        latencyMs: { list: { p50: 0.2 }, filtered: { p50: 0.3 }, getById: { p50: 0.3 } },
      },
    ],
    persist: {
      post: { off: 1000, on: 900, ratio: 0.9 },
      burstGetP99: { off: 10, on: 12, ratio: 1.2 },
      createCost: { small: 100, big: 110, ratio: 1.1 },
      failures: 0,
    },
    bundle: {
      msw: { minBytes: 300_000, gzipBytes: 90_000 },
      sandbox: { minBytes: 500_000, gzipBytes: 140_000 },
      added: { minKb: 200, gzipKb: 50 },
      inspector: { minKb: 20, gzipKb: 7 },
      addedByPackage: {},
    },
  }
}

const REQ_PER_S = ['list-rps', 'list-floor', 'create-rps']

/** The result and value of each target named in `ids`, in that order. */
const outcome = (targets: Target[], ids: string[]) =>
  ids.map((id) => {
    const target = targets.find((entry) => entry.id === id)
    return [id, target?.result, target?.value]
  })

test('req/s against bare Express and the msw floor are reported, however low; the p99 is still judged', async () => {
  const { evaluateTargets, TARGETS } = await report()
  // 0.3 of bare Express and of the floor, 0.2 of bare Express's POST: figures, no verdict.
  expect(
    outcome(evaluateTargets(results({ p99Ratio: 2 })), [...REQ_PER_S, 'list-p99']),
  ).toEqual([
    ['list-rps', 'REPORTED', 0.3],
    ['list-floor', 'REPORTED', 0.3],
    ['create-rps', 'REPORTED', 0.2],
    ['list-p99', 'FAIL', 2],
  ])
  expect(outcome(evaluateTargets(results({ p99Ratio: 1.2 })), ['list-p99'])).toEqual([
    ['list-p99', 'PASS', 1.2],
  ])
  // Every target but those three keeps a limit.
  const judged = evaluateTargets(results()).filter((target) => target.op !== undefined)
  expect(judged.map((target) => target.id).sort()).toEqual(
    TARGETS.map((target) => target.id)
      .filter((id) => !REQ_PER_S.includes(id))
      .sort(),
  )
  expect(judged.every((target) => target.result === 'PASS')).toBe(true)
})

test('a load run with answers other than 2xx still makes its figures INVALID', async () => {
  const { evaluateTargets } = await report()
  const targets = evaluateTargets(results({ failures: 3 }))
  expect(
    outcome(targets, [...REQ_PER_S, 'list-p99']).map(([id, result]) => [id, result]),
  ).toEqual([
    ['list-rps', 'INVALID'],
    ['list-floor', 'INVALID'],
    ['create-rps', 'INVALID'],
    ['list-p99', 'INVALID'],
  ])
})

test('the report gives the req/s rows no limit and names the instruction count as the speed target', async () => {
  const { evaluateTargets, renderMarkdown } = await report()
  const run = results()
  const markdown = renderMarkdown(run, evaluateTargets(run))
  const row = markdown
    .split('\n')
    .find((line) => line.startsWith('| GET /v1/pets req/s, sandbox/bare Express |'))
  expect(row).toContain(
    '| 0.30x | none: reported; the speed target is instructions a request',
  )
  expect(row).toContain('1.15x the msw floor (node bench/instructions-per-request.js')
  expect(row).toContain('| **REPORTED** |')
  // Nothing says the sandbox must reach 0.8 of bare Express or 0.9 of the floor.
  expect(markdown).not.toMatch(/>= 0\.8|>= 0\.9/)
  expect(markdown).toContain('13 of 13 targets met; 3 figures reported without a target.')
})

test('instructions-per-request.js counts every request a server answers unless --request or BENCH_REQUEST chooses', async () => {
  const { parseArguments } = await instructions()
  expect(parseArguments([], undefined)).toEqual({
    specs: ['floor', 'sandbox'],
    names: ['list', 'get', 'post'],
    nodeFlags: [],
  })
  expect(parseArguments(['--request', 'post', 'bare', 'sandbox'], undefined)).toEqual({
    specs: ['bare', 'sandbox'],
    names: ['post'],
    nodeFlags: [],
  })
  // --steady: every server's Node gets V8's flags for a count that moves less with load.
  expect(parseArguments(['--steady', 'floor', 'sandbox'], undefined)).toEqual({
    specs: ['floor', 'sandbox'],
    names: ['list', 'get', 'post'],
    nodeFlags: ['--predictable', '--no-memory-reducer'],
  })
  expect(parseArguments(['--request=list,get'], undefined).names).toEqual(['list', 'get'])
  expect(parseArguments(['sandbox'], 'get')).toEqual({
    specs: ['sandbox'],
    names: ['get'],
    nodeFlags: [],
  })
  expect(() => parseArguments(['--request', 'put'], undefined)).toThrow(
    '--request put: a request is list, get or post',
  )
  expect(() => parseArguments(['--requests', 'get'], undefined)).toThrow(
    '--requests: not an option here',
  )
  const { answers } = await servers()
  expect(['list', 'get', 'post'].map((name) => answers('floor,FLAG=1', name))).toEqual([
    true,
    false,
    false,
  ])
  expect(
    ['list', 'get', 'post'].map((name) => answers('sandbox=/tmp/old', name)),
  ).toEqual([true, true, true])
  expect(answers('bare', 'post')).toBe(true)
})
