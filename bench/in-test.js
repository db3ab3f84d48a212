// The in-test runtime, one side per process (two msw setupServer instances would both
// patch fetch): the cost of one `fetch` intercepted by msw and answered either by the
// sandbox (`setupSandboxServer`) or by a bare msw handler returning the same 20 pets.
// node bench/in-test.js <sandbox|bare> <pets-file> <requests>
// Prints one JSON line: { usPerRequest, batches, checked }.
import { readFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { performance } from 'node:perf_hooks'
import { http, HttpResponse } from 'msw'
import { setupServer } from 'msw/node'
import { setupSandboxServer } from '../dist/node/index.js'

const [mode, petsFile, requestsArg] = process.argv.slice(2)
const pets = JSON.parse(readFileSync(petsFile, 'utf8'))
const requests = Number(requestsArg)
const BATCHES = 10
const URL_LIST = 'http://api.example.test/v1/pets?limit=20'
const HEADERS = { authorization: 'Bearer sandbox-enterprise-key' }
// msw 3 renamed onUnhandledRequest to onUnhandledFrame and ignores the old name.
const mswMajor = Number(
  createRequire(import.meta.url)('msw/package.json').version.split('.')[0],
)
const LISTEN =
  mswMajor >= 3 ? { onUnhandledFrame: 'error' } : { onUnhandledRequest: 'error' }

let server
if (mode === 'sandbox') {
  server = setupSandboxServer({ seed: 42 })
  server.listen(LISTEN)
  await server.sandbox.ready
} else if (mode === 'bare') {
  server = setupServer(http.get('*/v1/pets', () => HttpResponse.json(pets)))
  server.listen(LISTEN)
} else {
  throw new Error(`unknown mode ${mode}: use sandbox or bare`)
}

const expected = JSON.stringify(pets)
async function once(check) {
  const response = await globalThis.fetch(URL_LIST, { headers: HEADERS })
  const body = await response.json()
  if (check) {
    if (response.status !== 200) throw new Error(`${mode}: status ${response.status}`)
    if (JSON.stringify(body) !== expected)
      throw new Error(`${mode}: the body is not the 20 expected pets`)
  }
}

await once(true)
const perBatch = Math.max(1, Math.floor(requests / BATCHES))
// Warm-up: as many requests as one batch, so the JIT has seen the whole path.
for (let index = 0; index < perBatch; index++) await once(false)
const batches = []
for (let batch = 0; batch < BATCHES; batch++) {
  const started = performance.now()
  for (let index = 0; index < perBatch; index++) await once(false)
  batches.push(((performance.now() - started) * 1000) / perBatch)
}
await once(true)
server.close()
batches.sort((left, right) => left - right)
const usPerRequest = batches[Math.floor(batches.length / 2)]
process.stdout.write(`${JSON.stringify({ mode, usPerRequest, batches, perBatch })}\n`)
