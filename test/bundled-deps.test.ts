import { readdirSync, readFileSync } from 'node:fs'
import { builtinModules } from 'node:module'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { expect, test } from 'vitest'

// Cold start (issue 22): the ES module library entries bundle @msw/data, what it imports
// (es-toolkit/compat's barrel alone was 555 files opened by every test file) and zod, so
// `import 'petstore-sandbox/node'` loads msw, express where asked, and node built-ins
// from outside dist/, nothing else (tsup.config.ts, LIBRARY_BUNDLED).
const DIST = fileURLToPath(new URL('../dist/', import.meta.url))
const ALLOWED = /^(msw(\/node|\/browser)?|express)$/
const builtins = new Set(builtinModules)

/** The ES module files of the library entries (not the CLI, not the CommonJS build). */
function libraryFiles(): string[] {
  return readdirSync(DIST, { recursive: true, encoding: 'utf8' })
    .map((file) => file.split('\\').join('/'))
    .filter(
      (file) =>
        file.endsWith('.js') &&
        !/^(cli|demo|docs|inspector|openapi)\//.test(file) &&
        !file.includes('/assets/'),
    )
}

/** Every bare specifier a file imports (static and dynamic). */
function bareImports(code: string): string[] {
  const found = new Set<string>()
  for (const match of code.matchAll(
    /(?:^|[;\n}])\s*(?:import|export)\s[^'"]*?from\s*"([^"]+)"|\bimport\(\s*"([^"]+)"\s*\)|^import\s*"([^"]+)"/gm,
  )) {
    const specifier = match[1] ?? match[2] ?? match[3] ?? ''
    if (!specifier.startsWith('.')) found.add(specifier)
  }
  return [...found]
}

test('the ES module library entries import only msw, express and node built-ins', () => {
  const files = libraryFiles()
  expect(files, 'run "npm run build" first').toContain('node/index.js')
  const strays: string[] = []
  for (const file of files) {
    for (const specifier of bareImports(readFileSync(join(DIST, file), 'utf8'))) {
      const builtin = builtins.has(specifier.replace(/^node:/, ''))
      if (!builtin && !ALLOWED.test(specifier)) strays.push(`${file}: ${specifier}`)
    }
  }
  expect(
    strays,
    'a dependency is imported at run time instead of bundled: add it to LIBRARY_BUNDLED in tsup.config.ts',
  ).toEqual([])
})

test("db collections work from dist's own copy of @msw/data, for the default world and a session", async () => {
  const { createSandbox } = (await import(
    join(DIST, 'node/index.js')
  )) as typeof import('../src/node/index.js')
  const sandbox = createSandbox({ seed: 42 })
  await sandbox.ready
  const seeded = sandbox.db.pets.findMany()
  expect(seeded.length).toBeGreaterThan(20)
  const session = sandbox.session('bundled-db')
  await session.ready
  expect(session.db.pets.findMany()).toHaveLength(seeded.length)
  const created = await session.db.pets.create({
    ...seeded[0]!,
    id: 100_000,
    name: 'Bundled',
  })
  expect(created.name).toBe('Bundled')
  expect(session.db.pets.findFirst((q) => q.where({ id: 100_000 }))?.name).toBe('Bundled')
  expect(sandbox.db.pets.findFirst((q) => q.where({ id: 100_000 }))).toBeUndefined()
})
