import { execFileSync } from 'node:child_process'
import { existsSync, readFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { fileURLToPath } from 'node:url'
import { beforeAll, describe, expect, test } from 'vitest'
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
