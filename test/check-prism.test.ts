import { spawn, type ChildProcess } from 'node:child_process'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, expect, test } from 'vitest'
import { checkDeployment } from 'petstore-sandbox/node'
import { createOpenApiDocument } from '../src/openapi/create-openapi-document.js'

// The check against a server we did not write: Prism (a devDependency) mocking the
// shipped OpenAPI document. The shapes it answers from the document pass; the behaviour a
// document cannot hold fails with clear lines: a missing pet, the 401 kinds, the
// rate-limit headers' values, the deprecation headers' forms. Its 400 and 401 bodies
// pass because each error response of the document has an example of its own status.

const folder = mkdtempSync(join(tmpdir(), 'petstore-prism-'))
let prism: ChildProcess | undefined
let baseUrl = ''

beforeAll(async () => {
  const document = join(folder, 'openapi.json')
  writeFileSync(document, JSON.stringify(createOpenApiDocument()))
  const cli = createRequire(import.meta.url).resolve('@stoplight/prism-cli/dist/index.js')
  prism = spawn(process.execPath, [cli, 'mock', document, '-p', '0', '-h', '127.0.0.1'], {
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  baseUrl = await new Promise<string>((resolve, reject) => {
    let output = ''
    prism?.stdout?.setEncoding('utf8').on('data', (chunk: string) => {
      output += chunk
      const match = /listening on (http:\/\/127\.0\.0\.1:\d+)/.exec(output)
      if (match) resolve(match[1] as string)
    })
    prism?.on('exit', (code) => reject(new Error(`Prism exited (${code}): ${output}`)))
  })
}, 30_000)

afterAll(() => {
  prism?.kill('SIGKILL')
  rmSync(folder, { recursive: true, force: true })
})

test('against Prism mocking the shipped openapi.json: the shapes pass, the behaviour it cannot meet fails clearly', async () => {
  // Prism serves the document's paths from its root (no /v1).
  const report = await checkDeployment({ baseUrl, key: 'any-key', timeoutMs: 20_000 })
  const by = (status: string) =>
    report.results
      .filter((result) => result.status === status)
      .map((result) => `${result.holds}: ${result.name}`)
  expect(by('failed')).toEqual([
    'document: getPet answers 404 with an Error body for a missing id',
    'decision: getPet (deprecated) carries Deprecation (RFC 9745), Sunset 5 December 2030 (RFC 8594) and a Link to GET /pets',
    'decision: listPets with a header that is not Bearer says code malformed_authorization',
    'document: listPets with an unknown key answers 401 with an Error body',
    'document: every answer carries X-RateLimit-Limit, X-RateLimit-Remaining and X-RateLimit-Reset',
  ])
  expect(by('skipped')).toEqual([
    'decision: listPets with an unknown key says code invalid_api_key',
  ])
  // The error bodies Prism mocks from the document's examples say their own status.
  expect(by('passed')).toContain(
    'document: every error answer has an Error body {code, message, status} whose status is the HTTP status',
  )
  expect(by('passed')).toContain(
    'decision: listPets refuses limit=0 (outside 1..100) with 400 validation_failed',
  )
  const headers = report.results.find((result) =>
    result.name.startsWith('every answer carries'),
  )
  expect(headers?.seen).toMatch(
    /X-RateLimit-Limit: 0, X-RateLimit-Remaining: 0, X-RateLimit-Reset: 0 \(a limit of 0 allows no request\)/,
  )
  expect(report.ok).toBe(false)
}, 30_000)
