import { execFile } from 'node:child_process'
import { existsSync, rmSync, writeFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { promisify } from 'node:util'
import { afterAll, beforeAll, expect, test } from 'vitest'
import { createPackedApp, npmInstall } from './packed-app.js'

// The declarations as users compile them (issue 16): the packed tarball in an empty
// project, type-checked with skipLibCheck false under each moduleResolution a user may
// have. The Express entry's types use express's, which come from @types/express (an
// optional peer dependency): first without it, as a user who never imports the Express
// entry has it, then with it.
const ROOT = fileURLToPath(new URL('..', import.meta.url))
const require = createRequire(import.meta.url)
const TSC = require.resolve('typescript/bin/tsc')
const run = promisify(execFile)
let folder: string
let app: string

const USE_EVERY_ENTRY = `import { createSandbox, type Pet, type Sandbox } from 'petstore-sandbox'
import { setupSandboxServer, createFileStore, type FileStore } from 'petstore-sandbox/node'
import { setupSandboxWorker } from 'petstore-sandbox/browser'
import { openInspector, type InspectorPanel } from 'petstore-sandbox/browser/inspector'
// @ts-expect-error the inspector is an entry of its own: the browser entry has none
import { openInspector as noInspector } from 'petstore-sandbox/browser'
// @ts-expect-error the file store is for Node: the browser entry has none
import { createFileStore as noFileStore } from 'petstore-sandbox/browser'

const sandbox: Sandbox = createSandbox({ seed: 42 })
// @ts-expect-error seed is a number: an entry typed as any would let this through
createSandbox({ seed: 'forty-two' })
const pet: Pet = { id: 1, name: 'Rex', categoryId: 1, status: 'available' }
// @ts-expect-error name is required
const nameless: Pet = { id: 2, categoryId: 1 }
const server = setupSandboxServer({ seed: 1 })
const worker = setupSandboxWorker({ seed: 1 })
const panel: InspectorPanel = openInspector(worker, { session: 'alice' })
const store: FileStore = createFileStore('state.jsonl', { log: (line: string) => void line })
// @ts-expect-error the path is a string
createFileStore(42)
const persisted = createSandbox({ store })
const closing: Promise<void> = persisted.close()
const restored: Promise<boolean> = store.restored
// @ts-expect-error the adapters' port is not on the public Sandbox type (issue 22)
void sandbox.handle(new Request('http://localhost/v1/pets'))
// @ts-expect-error nor is the override plumbing
sandbox.useOverrides([])
export const used = [sandbox, pet, nameless, server.sandbox.clock, worker.sandbox.reset, panel.close, closing, restored, noFileStore, noInspector]
`

const USE_EXPRESS = `import { createSandboxApp, createSandboxMiddleware, createFileStore } from 'petstore-sandbox/express'

const app = createSandboxApp({ seed: 1 })
app.use(createSandboxMiddleware({ seed: 2 }))
// @ts-expect-error bodyLimit is a number
createSandboxMiddleware({ bodyLimit: 'big' })
// @ts-expect-error the CLI's pinned-msw fast path is no option of the library (issue 22)
createSandboxMiddleware({ fastPath: {} })
// @ts-expect-error nor is the standalone app's overridesEverywhere
createSandboxApp({ overridesEverywhere: true })
export const sandbox = app.sandbox
export const persisted = createSandboxApp({ store: createFileStore('state.jsonl') })
`

type Resolution = 'bundler' | 'node16' | 'node10'

const COMPILER_OPTIONS: Record<Resolution, Record<string, unknown>> = {
  bundler: { module: 'esnext', moduleResolution: 'bundler' },
  node16: { module: 'node16', moduleResolution: 'node16' },
  node10: { module: 'commonjs', moduleResolution: 'node10', esModuleInterop: true },
}

/** tsc's errors for `file` under `resolution`, as lines ('' when it compiles). */
async function typeCheck(
  file: string,
  resolution: Resolution,
  skipLibCheck = false,
): Promise<string> {
  const config = join(app, `tsconfig.${resolution}.json`)
  writeFileSync(
    config,
    JSON.stringify({
      compilerOptions: {
        ...COMPILER_OPTIONS[resolution],
        target: 'es2022',
        lib: ['es2023', 'dom', 'dom.iterable'],
        types: ['node'],
        strict: true,
        noEmit: true,
        skipLibCheck,
      },
      files: [file],
    }),
  )
  try {
    await run(process.execPath, [TSC, '-p', config], { cwd: app })
    return ''
  } catch (error) {
    return String((error as { stdout?: string }).stdout ?? error).trim()
  }
}

beforeAll(async () => {
  if (!existsSync(join(ROOT, 'dist/index.d.ts'))) {
    throw new Error('dist/ is missing: run "npm run build" first (npm test does).')
  }
  let tarball: string
  ;({ folder, app, tarball } = await createPackedApp('types-test'))
  writeFileSync(join(app, 'use.ts'), USE_EVERY_ENTRY)
  writeFileSync(join(app, 'use-express.ts'), USE_EXPRESS)
  // The msw and Node types this checkout runs on (CI's second leg: msw 3).
  const msw = (require('msw/package.json') as { version: string }).version
  const typesNode = (require('@types/node/package.json') as { version: string }).version
  await npmInstall(app, tarball, `msw@${msw}`, `@types/node@${typesNode}`)
}, 180_000)

afterAll(() => {
  if (folder) rmSync(folder, { recursive: true, force: true })
})

test.each(['bundler', 'node16'] as const)(
  'every entry but Express compiles under moduleResolution %s with skipLibCheck false, without @types/express',
  async (resolution) => {
    expect(await typeCheck('use.ts', resolution)).toBe('')
  },
  60_000,
)

test('moduleResolution node10 finds every entry through typesVersions', async () => {
  // With skipLibCheck, the entries' own types are checked (the @ts-expect-error lines
  // fail if an entry resolved to any).
  expect(await typeCheck('use.ts', 'node10', true)).toBe('')
  // Without it, the errors left are of packages that publish their types only through
  // "exports", which node10 does not read: @msw/data's (under either msw), and under msw
  // 3 its subpaths (msw/browser, msw/node) and @mswjs/interceptors' (docs/getting-started.md#typescript).
  const errors = (await typeCheck('use.ts', 'node10'))
    .split('\n')
    .filter((line) => /error TS/.test(line))
  expect(errors.length).toBeGreaterThan(0)
  expect(errors.some((line) => line.includes("'@msw/data'"))).toBe(true)
  for (const line of errors)
    expect(line).toMatch(
      /TS2307: Cannot find module '(@msw\/data|@mswjs\/interceptors\/[\w/-]+|msw\/[\w/-]+)'/,
    )
}, 60_000)

test('the Express entry compiles with @types/express, under bundler and node16', async () => {
  expect(await typeCheck('use-express.ts', 'bundler')).toMatch(/TS7016.*'express'/)
  await npmInstall(app, '@types/express@5')
  expect(await typeCheck('use-express.ts', 'bundler')).toBe('')
  expect(await typeCheck('use-express.ts', 'node16')).toBe('')
}, 120_000)
