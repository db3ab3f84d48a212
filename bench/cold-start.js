// Cold start in a test file (issue 22): what a fresh process pays before its first
// answer, as vitest pays it in every test file. One side per process:
//   sandbox: import petstore-sandbox/node (the built dist, through the package's own
//            exports), setupSandboxServer({ seed: 42 }), listen, one GET /v1/pets?limit=20
//   msw:     import msw and msw/node, setupServer over one hand-written handler returning
//            the same 20 pets, listen, the same GET
// node bench/cold-start.js <sandbox|msw> <pets-file>
// Prints one JSON line: { mode, ms, cpuMs }: performance.now() at the answer (from the
// process's own time origin) and the CPU time the process used until then (user and
// system, Node's boot included), which a busy machine skews far less than wall time;
// bench/run.js also times spawn to exit.
import { readFileSync } from 'node:fs'
import { performance } from 'node:perf_hooks'

const [mode, petsFile] = process.argv.slice(2)
const URL_LIST = 'http://api.example.test/v1/pets?limit=20'
const HEADERS = { authorization: 'Bearer sandbox-enterprise-key' }
const expected = readFileSync(petsFile, 'utf8')

let server
if (mode === 'sandbox') {
  const { setupSandboxServer } = await import('petstore-sandbox/node')
  server = setupSandboxServer({ seed: 42 })
  server.listen({ onUnhandledRequest: 'error' })
} else if (mode === 'msw') {
  const [{ http, HttpResponse }, { setupServer }] = await Promise.all([
    import('msw'),
    import('msw/node'),
  ])
  const pets = JSON.parse(expected)
  server = setupServer(http.get('*/v1/pets', () => HttpResponse.json(pets)))
  server.listen({ onUnhandledRequest: 'error' })
} else {
  throw new Error(`unknown mode ${mode}: use sandbox or msw`)
}

const response = await globalThis.fetch(URL_LIST, { headers: HEADERS })
const body = await response.text()
const ms = performance.now()
const cpu = process.cpuUsage()
if (response.status !== 200) throw new Error(`${mode}: status ${response.status}`)
if (JSON.stringify(JSON.parse(body)) !== JSON.stringify(JSON.parse(expected)))
  throw new Error(`${mode}: the body is not the 20 expected pets`)
server.close()
process.stdout.write(
  `${JSON.stringify({ mode, ms, cpuMs: (cpu.user + cpu.system) / 1000 })}\n`,
)
