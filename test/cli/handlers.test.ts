import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, test } from 'vitest'
import {
  FREE,
  overridesAreTheUsers,
  readJournal,
} from '../overrides/overrides-are-the-users.js'
import {
  eventually,
  killAll,
  removeCliBuild,
  runCli,
  startServer,
} from './cli-process.js'

// --handlers: the user's own handlers in the standalone server (in process, the same
// file is checked by test/overrides/overrides.test.ts).

const FILE = 'test/overrides/overrides.js'

afterAll(async () => {
  await killAll()
  removeCliBuild()
})

test(
  'the override file serves the standalone server as it serves tests (--handlers)',
  overridesAreTheUsers(async () => {
    const { cli, origin } = await startServer(['--handlers', FILE])
    return { origin, journal: () => readJournal(origin), stop: () => cli.kill() }
  }),
)

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
