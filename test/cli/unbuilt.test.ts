import { spawnSync } from 'node:child_process'
import { copyFileSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { afterAll, expect, test } from 'vitest'

// A clone of the repository before its first build has bin/ but no dist/: `npx
// petstore-sandbox` there says how to build, not an ERR_MODULE_NOT_FOUND stack.
const folder = mkdtempSync(join(tmpdir(), 'petstore-unbuilt-'))
afterAll(() => rmSync(folder, { recursive: true, force: true }))

test('the bin without dist/ says to run npm start or npm run build, and exits 1', () => {
  mkdirSync(join(folder, 'bin'))
  const bin = join(folder, 'bin', 'petstore-sandbox.js')
  copyFileSync(
    fileURLToPath(new URL('../../bin/petstore-sandbox.js', import.meta.url)),
    bin,
  )
  const run = spawnSync(process.execPath, [bin, '--help'], { encoding: 'utf8' })
  expect(run.status).toBe(1)
  expect(run.stderr).toBe(
    'petstore-sandbox: the CLI is not built (dist/cli/index.js is missing). In a clone of the repository, run `npm start` (it builds, then starts the sandbox) or `npm run build` first.\n',
  )
  expect(run.stdout).toBe('')
})

test('a built CLI whose own import is missing throws that error, not the "not built" one', () => {
  const root = join(folder, 'built')
  mkdirSync(join(root, 'bin'), { recursive: true })
  mkdirSync(join(root, 'dist', 'cli'), { recursive: true })
  copyFileSync(
    fileURLToPath(new URL('../../bin/petstore-sandbox.js', import.meta.url)),
    join(root, 'bin', 'petstore-sandbox.js'),
  )
  writeFileSync(
    join(root, 'dist', 'cli', 'index.js'),
    "import 'petstore-missing-dependency'\nexport const main = () => {}\n",
  )
  writeFileSync(join(root, 'package.json'), '{"type":"module"}')
  const run = spawnSync(process.execPath, [join(root, 'bin', 'petstore-sandbox.js')], {
    encoding: 'utf8',
  })
  expect(run.status).toBe(1)
  expect(run.stderr).toContain("Cannot find package 'petstore-missing-dependency'")
  expect(run.stderr).not.toContain('the CLI is not built')
})
