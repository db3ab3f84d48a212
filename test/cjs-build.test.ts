import { execFileSync, spawnSync } from 'node:child_process'
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  symlinkSync,
} from 'node:fs'
import { createRequire } from 'node:module'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { build } from 'esbuild'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { createSandbox } from 'petstore-sandbox'
import { findEnvironmentProblem } from '../src/node/check-environment.js'

// The CommonJS build (tsup.config.ts) bundles faker, @msw/data and msw for Jest: it must
// give the data of the source, byte for byte, as the ES module build (which bundles its
// own faker) does, and be loadable by require() alone.
const root = fileURLToPath(new URL('..', import.meta.url))
const require = createRequire(import.meta.url)

/** Whether the CommonJS build carries its own msw (built with msw 2) or requires the user's. */
function bundlesMsw(folder = root) {
  return !readFileSync(`${folder}/dist/node/index.cjs`, 'utf8').includes(
    "require('msw/node')",
  )
}

describe('the CommonJS build', () => {
  beforeAll(() => {
    if (!existsSync(`${root}dist/node/index.cjs`)) {
      throw new Error('dist/ is missing: run "npm run build" first (npm test does).')
    }
  })

  test.each([42, 7, 2024])('seed %i gives the same pets as the source', async (seed) => {
    const cjs = require(`${root}dist/node/index.cjs`) as typeof import('petstore-sandbox')
    const built = cjs.createSandbox({ seed, count: 200 })
    const source = createSandbox({ seed, count: 200 })
    await Promise.all([built.ready, source.ready])
    expect(JSON.stringify(built.db.pets.all())).toBe(JSON.stringify(source.db.pets.all()))
  })

  test('the ES module and CommonJS builds, each with its own copy of faker, give the same 5,000 pets as the source', async () => {
    const cjs = require(`${root}dist/index.cjs`) as typeof import('petstore-sandbox')
    const esm = (await import(
      `${root}dist/index.js`
    )) as typeof import('petstore-sandbox')
    const worlds = [cjs, esm, { createSandbox }].map(({ createSandbox: create }) =>
      create({ seed: 2024, count: 5000 }),
    )
    await Promise.all(worlds.map((world) => world.ready))
    const [fromCjs, fromEsm, fromSource] = worlds.map((world) =>
      JSON.stringify(world.db.pets.all()),
    )
    expect(fromCjs).toBe(fromSource)
    expect(fromEsm).toBe(fromSource)
  })

  test('require() of every CommonJS entry works in plain Node, with no ESM left to load', () => {
    const script = `
      const node = require('petstore-sandbox/node')
      const core = require('petstore-sandbox')
      const express = require('petstore-sandbox/express')
      const server = node.setupSandboxServer({ seed: 42 })
      server.listen({ onUnhandledRequest: 'error' })
      fetch('https://api.example.test/v1/pets?limit=2', {
        headers: { authorization: 'Bearer sandbox-free-key' },
      }).then(async (response) => {
        console.log(JSON.stringify({
          status: response.status,
          pets: (await response.json()).length,
          core: typeof core.createSandbox,
          express: typeof express.createSandboxApp,
        }))
        server.close()
      })
    `
    // --no-experimental-require-module: as Jest's module loader, which cannot require
    // an ES module on Node 20 and 22. A build made with msw 3 leaves msw out
    // (tsup.config.ts), and requires it as an ES module, which Node 22.12+ does.
    const flags = bundlesMsw() ? ['--no-experimental-require-module'] : []
    const output = execFileSync(
      process.execPath,
      [...flags, '-e', script],
      // Resolve the package's own name through its exports map (self-reference).
      { cwd: root, encoding: 'utf8' },
    )
    expect(JSON.parse(output)).toEqual({
      status: 200,
      pets: 2,
      core: 'function',
      express: 'function',
    })
  })
})

describe('the Node entry under a DOM emulation', () => {
  test('jsdom without the fetch globals under Jest names jest-fixed-jsdom', () => {
    const saved = { Request: globalThis.Request, navigator: globalThis.navigator }
    const jest = process.env.JEST_WORKER_ID
    try {
      Object.defineProperty(globalThis, 'navigator', {
        value: {
          userAgent:
            'Mozilla/5.0 (linux) AppleWebKit/537.36 (KHTML, like Gecko) jsdom/26.1.0',
        },
        configurable: true,
      })
      // @ts-expect-error removed for the test, as jest-environment-jsdom does
      delete globalThis.Request
      process.env.JEST_WORKER_ID = '1'
      expect(findEnvironmentProblem('petstore-sandbox/node')?.message).toMatch(
        /^Failed to load "petstore-sandbox\/node": the test runs in Jest's jsdom environment.*testEnvironment: 'jest-fixed-jsdom'.*testEnvironment: 'node'/,
      )
    } finally {
      globalThis.Request = saved.Request
      Object.defineProperty(globalThis, 'navigator', {
        value: saved.navigator,
        configurable: true,
      })
      if (jest === undefined) delete process.env.JEST_WORKER_ID
      else process.env.JEST_WORKER_ID = jest
    }
  })

  test('plain Node has what msw needs', () => {
    expect(findEnvironmentProblem('petstore-sandbox/node')).toBeUndefined()
  })
})

// The browser entries have a CommonJS build too (issue 40): a bundler meeting them through
// require() gets CommonJS, not an ES module file (@arethetypeswrong/cli's
// cjs-resolves-to-esm, which `npm run lint:package` no longer ignores), and Node's require()
// gets the message naming the Node entry.
describe('the CommonJS build of the browser entries', () => {
  const project = mkdtempSync(join(tmpdir(), 'petstore-browser-cjs-'))
  mkdirSync(join(project, 'node_modules'))
  symlinkSync(root, join(project, 'node_modules', 'petstore-sandbox'), 'dir')
  afterAll(() => rmSync(project, { recursive: true, force: true }))

  /** The export names of an ES module file of dist/, as esbuild reads them. */
  async function esmExports(file: string) {
    const result = await build({
      entryPoints: [`${root}${file}`],
      bundle: false,
      write: false,
      metafile: true,
      format: 'esm',
      outdir: project,
      logLevel: 'silent',
    })
    return Object.values(result.metafile.outputs)[0]?.exports.toSorted()
  }

  /**
   * A CommonJS file of dist/ run as a browser bundle runs it: msw/browser (which Node
   * cannot load) is a stand-in, msw, outvariant and rettime the installed ones.
   */
  function runCjs(file: string) {
    const module = { exports: {} as Record<string, unknown> }
    const requireForBrowser = (id: string) =>
      id === 'msw/browser'
        ? { setupWorker: () => ({ start: () => Promise.resolve(), stop() {} }) }
        : require(id)
    new Function('module', 'exports', 'require', readFileSync(`${root}${file}`, 'utf8'))(
      module,
      module.exports,
      requireForBrowser,
    )
    return module.exports
  }

  test.each([
    ['petstore-sandbox/browser', 'dist/browser/index'],
    ['petstore-sandbox/browser/inspector', 'dist/browser/inspector'],
  ])(
    "a bundler's require('%s') gets %s.cjs, with the ES module build's exports",
    async (entry, file) => {
      const result = await build({
        stdin: {
          contents: `module.exports = require(${JSON.stringify(entry)})`,
          resolveDir: project,
        },
        bundle: true,
        write: false,
        metafile: true,
        platform: 'browser',
        format: 'cjs',
        logLevel: 'silent',
        // Paths as the project sees them (node_modules/petstore-sandbox/...).
        absWorkingDir: project,
        preserveSymlinks: true,
        external: ['msw', 'msw/*', 'outvariant', 'rettime'],
      })
      const inputs = Object.keys(result.metafile.inputs).filter((input) =>
        input.includes('petstore-sandbox/dist/'),
      )
      expect(inputs).toEqual([`node_modules/petstore-sandbox/${file}.cjs`])
      expect(Object.keys(runCjs(`${file}.cjs`)).toSorted()).toEqual(
        await esmExports(`${file}.js`),
      )
    },
  )

  test('the CommonJS browser entry gives the same pets for a seed as the source', async () => {
    const cjs = runCjs(
      'dist/browser/index.cjs',
    ) as unknown as typeof import('petstore-sandbox')
    const built = cjs.createSandbox({ seed: 42, count: 200 })
    const source = createSandbox({ seed: 42, count: 200 })
    await Promise.all([built.ready, source.ready])
    expect(JSON.stringify(built.db.pets.all())).toBe(JSON.stringify(source.db.pets.all()))
  })

  test.each(['petstore-sandbox/browser', 'petstore-sandbox/browser/inspector'])(
    "Node's require('%s') names the entry to use, as CommonJS (no ES module to require)",
    (entry) => {
      const run = spawnSync(
        process.execPath,
        ['--no-experimental-require-module', '-e', `require(${JSON.stringify(entry)})`],
        { cwd: project, encoding: 'utf8' },
      )
      expect(run.status).toBe(1)
      expect(run.stderr).toMatch(
        /Failed to import "petstore-sandbox\/browser": .*Import "petstore-sandbox\/node"/,
      )
    },
  )
})
