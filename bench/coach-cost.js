// What the report card and the request ids cost per request (issue 23), in process:
// the in-test request (setupSandboxServer, fetch intercepted by msw, GET /v1/pets?limit=20)
// against the work the two add to it, timed on its own over the same kind of requests:
// ReportCard.observe with entries as the journal keeps them (lists, creates, 429s), and the X-Sandbox-Request-Id
// header on the reply. Without them a request would be that much shorter.
// node bench/coach-cost.js <requests>; prints one JSON line.
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { performance } from 'node:perf_hooks'
import { build } from 'esbuild'
import { setupSandboxServer } from '../dist/node/index.js'

const ROOT = fileURLToPath(new URL('..', import.meta.url))
const requests = Number(process.argv[2] ?? 3000)

// The core's ReportCard and the built-in scenarios, bundled from the sources once.
const dir = mkdtempSync(join(tmpdir(), 'petstore-coach-'))
const entry = join(dir, 'entry.js')
await build({
  stdin: {
    contents: `export { ReportCard } from './src/core/coach/report-card.ts'\nexport { BUILT_IN_SCENARIOS } from './src/core/scenarios/scenarios.ts'`,
    resolveDir: ROOT,
    loader: 'ts',
  },
  bundle: true,
  format: 'esm',
  platform: 'node',
  outfile: entry,
  logLevel: 'error',
})
const { ReportCard, BUILT_IN_SCENARIOS } = await import(entry)
rmSync(dir, { recursive: true, force: true })

// 1. The in-test request, as users run it.
const server = setupSandboxServer({ seed: 42 })
server.listen({ onUnhandledRequest: 'error' })
await server.sandbox.ready
const URL_LIST = 'http://api.example.test/v1/pets?limit=20'
const HEADERS = { authorization: 'Bearer sandbox-enterprise-key' }
const once = async () => (await globalThis.fetch(URL_LIST, { headers: HEADERS })).json()
for (let i = 0; i < 500; i++) await once()
let started = performance.now()
for (let i = 0; i < requests; i++) await once()
const requestUs = ((performance.now() - started) * 1000) / requests
const sample = server.sandbox.journal.recent(1)[0]
server.close()

// 2. What the two add to each: the card noting the entry, and the id on the reply.
const scenario = BUILT_IN_SCENARIOS[0]
const clock = { state: () => ({ frozen: false }) }
const reply = {
  'content-type': 'application/json',
  'x-ratelimit-limit': '1000000',
  'x-ratelimit-remaining': '999999',
  'x-ratelimit-reset': '1767225660',
}
const ROUNDS = 200_000
const card = new ReportCard()
let sink = 0
const timeIt = (work) => {
  for (let i = 0; i < 20_000; i++) work(i)
  const begin = performance.now()
  for (let i = 0; i < ROUNDS; i++) work(i)
  return ((performance.now() - begin) * 1000) / ROUNDS
}
// Mostly lists, as the in-test request is, with the costlier kinds mixed in: every
// tenth a create, every twentieth a 429 (the card reads the clock for those).
const entries = Array.from({ length: 1024 }, (_, i) => {
  const at = new Date(Date.UTC(2026, 10, 25) + i * 250).toISOString()
  if (i % 20 === 0)
    return { ...sample, id: i, at, status: 429, code: 'rate_limit_exceeded' }
  if (i % 10 === 0)
    return { ...sample, id: i, at, method: 'POST', status: 201, operation: 'createPet' }
  return { ...sample, id: i, at }
})
const body = new TextEncoder().encode('{"name":"Rex","categoryId":1}')
const observeUs = timeIt((i) => {
  const entry = entries[i & 1023]
  card.observe(
    entry,
    entry.status === 201 ? { scenario, clock, body } : { scenario, clock },
  )
})
const idUs = timeIt((i) => {
  const headers = { ...reply, 'x-sandbox-request-id': String(i) }
  sink += headers['x-sandbox-request-id'].length
})
process.stdout.write(
  `${JSON.stringify({
    requestUs,
    observeUs,
    idUs,
    share: (observeUs + idUs) / requestUs,
    sink: sink > 0,
  })}\n`,
)
