import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { JournalEntry } from 'petstore-sandbox'
import { http } from 'msw'
import { setupSandboxServer } from 'petstore-sandbox/node'
import { afterAll, describe, expect, test } from 'vitest'
import {
  eventually,
  killAll,
  removeCliBuild,
  runCli,
  startServer,
} from '../cli/cli-process.js'
import { startApp } from '../express/start-app.js'
import { failOnUnhandledRequest } from '../msw-options.js'
import overrides from './overrides.js'

const FILE = 'test/overrides/overrides.js'
const FREE = { authorization: 'Bearer sandbox-free-key' }

/** The same checks against a runtime, given its base address and its journal. */
function overridesAreTheUsers(
  start: () => Promise<{
    origin: string
    journal: () => Promise<JournalEntry[]>
    stop: () => Promise<unknown>
  }>,
) {
  return async () => {
    const { origin, journal, stop } = await start()
    try {
      const pet = await fetch(`${origin}/v1/pets/4242`, { headers: FREE })
      expect(pet.status).toBe(200)
      expect(await pet.json()).toEqual({
        id: 4242,
        name: 'Overridden',
        categoryId: 1,
        status: 'available',
      })
      expect(pet.headers.get('x-override')).toBe('pet')
      // The user's answer gets no headers it did not set and is not counted.
      expect(pet.headers.get('x-ratelimit-remaining')).toBeNull()
      expect(pet.headers.get('deprecation')).toBeNull()

      const teapot = await fetch(`${origin}/v1/pets`, {
        method: 'POST',
        headers: { ...FREE, 'content-type': 'application/json' },
        body: JSON.stringify({ name: 'Teapot', categoryId: 1 }),
      })
      expect(teapot.status).toBe(418)

      // The override read this body too, and fell through: the sandbox still has it.
      const rex = await fetch(`${origin}/v1/pets`, {
        method: 'POST',
        headers: { ...FREE, 'content-type': 'application/json' },
        body: JSON.stringify({ name: 'Rex', categoryId: 2 }),
      })
      expect(rex.status).toBe(201)
      expect(await rex.json()).toMatchObject({ name: 'Rex', categoryId: 2 })
      // The first request the sandbox counted.
      expect(rex.headers.get('x-ratelimit-remaining')).toBe('59')

      expect((await fetch(`${origin}/health`)).status).toBe(200)

      const entries = (await journal()).map(({ method, path, status, override }) => ({
        method,
        path,
        status,
        override: override ?? false,
      }))
      expect(entries).toEqual(
        expect.arrayContaining([
          { method: 'GET', path: '/v1/pets/4242', status: 200, override: true },
          { method: 'POST', path: '/v1/pets', status: 418, override: true },
          { method: 'POST', path: '/v1/pets', status: 201, override: false },
        ]),
      )
    } finally {
      await stop()
    }
  }
}

const readJournal = async (origin: string) =>
  (
    (await (await fetch(`${origin}/__sandbox/requests`)).json()) as {
      requests: JournalEntry[]
    }
  ).requests

afterAll(async () => {
  await killAll()
  removeCliBuild()
})

describe('one override file serves every runtime', () => {
  test(
    'in tests (setupSandboxServer)',
    overridesAreTheUsers(async () => {
      const server = setupSandboxServer({ handlers: overrides })
      server.listen(failOnUnhandledRequest)
      const origin = 'http://sandbox.test'
      return {
        origin,
        journal: async () => server.sandbox.journal.recent(),
        stop: async () => server.close(),
      }
    }),
  )

  test(
    'in an Express app (createSandboxApp)',
    overridesAreTheUsers(async () => {
      const app = await startApp({ handlers: overrides })
      return {
        origin: app.origin,
        journal: () => readJournal(app.origin),
        stop: app.close,
      }
    }),
  )

  test(
    'in the standalone server (--handlers)',
    overridesAreTheUsers(async () => {
      const { cli, origin } = await startServer(['--handlers', FILE])
      return { origin, journal: () => readJournal(origin), stop: () => cli.kill() }
    }),
  )
})

test('the pretty log marks answers of your own handlers as yours', async () => {
  const cli = await runCli(['--port', '0', '--handlers', FILE])
  try {
    const api = /API +(\S+)/.exec(await cli.line(/API +http/))?.[1] as string
    const origin = api.replace(/\/v1$/, '')
    await fetch(`${origin}/v1/pets/4242`, {
      headers: { authorization: 'Bearer sandbox-free-key' },
    })
    await fetch(`${origin}/v1/pets/1`, {
      headers: { authorization: 'Bearer sandbox-free-key' },
    })
    expect(await cli.line(/GET \/v1\/pets\/4242/)).toMatch(/ 200 \(your handler\) /)
    expect(await cli.line(/GET \/v1\/pets\/1 /)).not.toMatch(/your handler/)
  } finally {
    cli.kill()
  }
})

describe('--handlers on the command line', () => {
  afterAll(() => rmSync(OUTPUT, { recursive: true, force: true }))
  const OUTPUT = 'test-output/handlers'

  test('a module whose msw does not resolve is one line saying how to fix it', async () => {
    const folder = mkdtempSync(join(tmpdir(), 'petstore-handlers-'))
    try {
      const file = join(folder, 'mocks.js')
      writeFileSync(
        file,
        "import { http } from 'msw'\nexport default [http.get('*/x', () => {})]\n",
      )
      const cli = await runCli(['--port', '0', '--handlers', file])
      const { code } = await cli.exited
      expect(code).toBe(1)
      const lines = cli.stderr().trimEnd().split('\n')
      expect(lines).toHaveLength(1)
      expect(lines[0]).toMatch(/imports msw, which does not resolve from its folder/)
      expect(lines[0]).toMatch(/npm install --save-dev msw/)
    } finally {
      rmSync(folder, { recursive: true, force: true })
    }
  })

  test('an ES module named .js in a CommonJS project: "rename it to .mjs", in its own line', async () => {
    const folder = mkdtempSync(join(tmpdir(), 'petstore-handlers-cjs-'))
    try {
      writeFileSync(join(folder, 'package.json'), '{"type":"commonjs"}\n')
      const file = join(folder, 'mocks.js')
      writeFileSync(file, 'export default []\n')
      const cli = await runCli(['--port', '0', '--handlers', file])
      const { code } = await cli.exited
      expect(code).toBe(1)
      // Node may print its own warning first; the sandbox's is one line, the last.
      const last = cli.stderr().trimEnd().split('\n').at(-1)
      expect(last).toMatch(
        /^petstore-sandbox: Failed to load --handlers .*mocks\.js: it is an ES module .* in a CommonJS project/,
      )
      expect(last).toMatch(/Rename it to mocks\.mjs/)
    } finally {
      rmSync(folder, { recursive: true, force: true })
    }
  })

  test('a module without an array of handlers is refused naming the file', async () => {
    mkdirSync(OUTPUT, { recursive: true })
    const file = join(OUTPUT, 'not-handlers.js')
    writeFileSync(file, 'export default { nope: true }\n')
    const cli = await runCli(['--port', '0', '--handlers', file])
    expect((await cli.exited).code).toBe(1)
    expect(cli.stderr()).toMatch(
      /--handlers .*not-handlers\.js: it has no default export or export "handlers" that is an array/,
    )
  })

  test('a syntax error names its line (Node names it only when it prints the error itself)', async () => {
    mkdirSync(OUTPUT, { recursive: true })
    const file = join(OUTPUT, 'broken.mjs')
    writeFileSync(file, 'export default [\n  1,\n')
    const cli = await runCli(['--port', '0', '--handlers', file])
    expect((await cli.exited).code).toBe(1)
    expect(cli.stderr()).toMatch(
      /--handlers .*broken\.mjs: Unexpected end of input \(line 3\)/,
    )
  })

  test.each([
    [
      'an ES module',
      'watched.js',
      (name: string) =>
        `import { http, HttpResponse } from 'msw'\nexport default [http.get('*/v1/pets/4242', () => HttpResponse.json({ id: 4242, name: '${name}', categoryId: 1 }))]\n`,
    ],
    [
      // Node's require cache ignores the new URL each reload imports it under.
      'a CommonJS module (.cjs)',
      'watched.cjs',
      (name: string) =>
        `const { http, HttpResponse } = require('msw')\nmodule.exports = [http.get('*/v1/pets/4242', () => HttpResponse.json({ id: 4242, name: '${name}', categoryId: 1 }))]\n`,
    ],
  ])('--watch reloads the module: %s', async (_kind, fileName, source) => {
    mkdirSync(OUTPUT, { recursive: true })
    const file = join(OUTPUT, fileName)
    const version = (name: string) => writeFileSync(file, source(name))
    version('First')
    const { origin } = await startServer(['--handlers', file, '--watch'])
    const name = async () =>
      (
        (await (await fetch(`${origin}/v1/pets/4242`, { headers: FREE })).json()) as {
          name: string
        }
      ).name
    expect(await name()).toBe('First')
    version('Second')
    expect(
      await eventually(async () => ((await name()) === 'Second' ? true : undefined)),
    ).toBe(true)
  })
})

test("a handler of yours that throws is a 500 saying it was yours, journalled as an override's, its error handed to onError", async () => {
  const errors: unknown[] = []
  const app = await startApp({
    handlers: [
      http.get('*/v1/pets/:id', () => {
        throw new Error('boom in my handler')
      }),
    ],
    onError: (error) => void errors.push(error),
  })
  try {
    const thrown = await fetch(`${app.origin}/v1/pets/7`, { headers: FREE })
    expect(thrown.status).toBe(500)
    expect(await thrown.json()).toEqual({
      code: 'internal_error',
      status: 500,
      message:
        "One of your own msw handlers (the handlers option, --handlers) threw on GET /v1/pets/7, so it has no answer: fix that handler, or have it return nothing to let the sandbox answer. Its error is the server's to report: the CLI prints it, createSandboxApp hands it to its onError, createSandboxMiddleware to next(error).",
    })
    expect(errors).toHaveLength(1)
    expect((errors[0] as Error).name).toBe('HandlerThrewError')
    expect(((errors[0] as Error).cause as Error).message).toBe('boom in my handler')
    // The sandbox itself still answers what the handler does not take.
    expect((await fetch(`${app.origin}/v1/pets`, { headers: FREE })).status).toBe(200)
    const entries = (await readJournal(app.origin)).map(({ path, status, override }) => ({
      path,
      status,
      override: override ?? false,
    }))
    // Newest first.
    expect(entries).toEqual([
      { path: '/v1/pets', status: 200, override: false },
      { path: '/v1/pets/7', status: 500, override: true },
    ])
  } finally {
    await app.close()
  }
})
