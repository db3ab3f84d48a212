import { execFile, spawn } from 'node:child_process'
import { existsSync, readFileSync, rmSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { promisify } from 'node:util'
import { afterAll, beforeAll, expect, test } from 'vitest'
import { createSandbox } from 'petstore-sandbox'
import { killAll, track } from './cli/cli-process.js'
import { createPackedApp, npmInstall } from './packed-app.js'

// msw's test/modules idea: the package as users get it, from its tarball, in an empty
// folder, through its public names only.
const ROOT = fileURLToPath(new URL('..', import.meta.url))
const run = promisify(execFile)
let folder: string
let app: string
let tarball: string

beforeAll(async () => {
  if (
    !existsSync(join(ROOT, 'dist/cli/index.js')) ||
    !existsSync(join(ROOT, 'dist/express/index.js'))
  ) {
    throw new Error('dist/ is missing: run "npm run build" first (npm test does).')
  }
  ;({ folder, app, tarball } = await createPackedApp('pack-test'))
  await npmInstall(app, tarball, 'msw@2')
}, 120_000)

afterAll(async () => {
  await killAll()
  if (folder) rmSync(folder, { recursive: true, force: true })
})

test('the installed bin serves the seeded pets on a free port, the same as the source', async () => {
  const child = spawn(
    join(app, 'node_modules/.bin/petstore-sandbox'),
    ['--port', '0', '--log-format', 'json'],
    {
      cwd: app,
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  )
  const cli = track(child)
  const ready = JSON.parse(await cli.line(/"type":"ready"/)) as { url: string }
  expect(ready.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/v1$/)
  const response = await fetch(`${ready.url}/pets`, {
    headers: { authorization: 'Bearer sandbox-free-key' },
  })
  expect(response.status).toBe(200)
  const pets = await response.json()
  const source = createSandbox({ seed: 42 })
  await source.ready
  expect(pets).toEqual(source.db.pets.all().slice(0, 20))
  expect((await fetch(ready.url.replace(/\/v1$/, '/openapi.json'))).status).toBe(200)
  const origin = new URL(ready.url).origin
  const control = await fetch(`${origin}/__sandbox/openapi.json`)
  expect(control.status).toBe(200)
  expect((await control.json()).servers[0].url).toBe(origin)
  child.kill('SIGTERM')
  expect((await cli.exited).code).toBe(0)
})

test('both OpenAPI documents are exports: the API (/v1) and the control API (server /)', async () => {
  const script = `
    const api = (await import('petstore-sandbox/openapi.json', { with: { type: 'json' } })).default
    const control = (await import('petstore-sandbox/control-openapi.json', { with: { type: 'json' } })).default
    const { createRequire } = await import('node:module')
    const required = createRequire(process.cwd() + '/')('petstore-sandbox/control-openapi.json')
    console.log(JSON.stringify({
      api: [api.servers[0].url, Object.keys(api.paths).some((path) => path.startsWith('/__sandbox'))],
      control: [control.servers.map((server) => server.url), Object.keys(control.paths).every((path) => path.startsWith('/__sandbox'))],
      same: JSON.stringify(required) === JSON.stringify(control),
    }))
  `
  const { stdout } = await run(process.execPath, ['--input-type=module', '-e', script], {
    cwd: app,
  })
  expect(JSON.parse(stdout)).toEqual({
    api: ['http://127.0.0.1:4010/v1', false],
    control: [['/'], true],
    same: true,
  })
})

test('every Node entry point imports; the browser entries refuse Node with their message', async () => {
  const script = `
    const core = await import('petstore-sandbox')
    const node = await import('petstore-sandbox/node')
    const express = await import('petstore-sandbox/express')
    let browser = 'loaded'
    try { await import('petstore-sandbox/browser') } catch (error) { browser = error.message }
    let inspector = 'loaded'
    try { await import('petstore-sandbox/browser/inspector') } catch (error) { inspector = error.message }
    console.log(JSON.stringify({
      core: typeof core.createSandbox,
      node: typeof node.setupSandboxServer,
      express: [typeof express.createSandboxApp, typeof express.createSandboxMiddleware],
      fileStore: [typeof node.createFileStore, typeof express.createFileStore, typeof core.createFileStore],
      scenarios: core.SCENARIO_NAMES,
      browser,
      inspector,
    }))
  `
  const { stdout } = await run(process.execPath, ['--input-type=module', '-e', script], {
    cwd: app,
  })
  const result = JSON.parse(stdout) as Record<string, unknown>
  expect(result).toMatchObject({
    core: 'function',
    node: 'function',
    express: ['function', 'function'],
    fileStore: ['function', 'function', 'undefined'],
    scenarios: expect.arrayContaining([
      'default',
      'rate-limited',
      'expired-key',
      'missing-pet',
    ]),
  })
  expect(result.browser).toMatch(
    /Failed to import "petstore-sandbox\/browser".*petstore-sandbox\/node/,
  )
  expect(result.inspector).toBe(result.browser)
})

test('require() loads every Node entry from the tarball, as Jest does (no ESM to require)', async () => {
  const script = `
    const { setupSandboxServer, createSandbox, http, createFileStore } = require('petstore-sandbox/node')
    const core = require('petstore-sandbox')
    const express = require('petstore-sandbox/express')
    console.log(JSON.stringify([typeof setupSandboxServer, typeof createSandbox, typeof http.get,
      typeof core.createSandbox, typeof express.createSandboxApp, typeof createFileStore,
      typeof express.createFileStore]))
  `
  // As Jest's loader, which cannot require an ES module; a build made with msw 3 leaves
  // msw out and needs Node 22.12+'s require() of ES modules (tsup.config.ts).
  const bundled = !readFileSync(join(ROOT, 'dist/node/index.cjs'), 'utf8').includes(
    "require('msw/node')",
  )
  const flags = bundled ? ['--no-experimental-require-module'] : []
  const { stdout } = await run(process.execPath, [...flags, '-e', script], { cwd: app })
  expect(JSON.parse(stdout)).toEqual(Array(7).fill('function'))
})
