// Is dist/ current? `npm run build` ends by writing dist/.build-stamp; `npm start`
// (scripts/start.js) and `npm test` rebuild only when something the build reads is newer
// than it, so a second run in the same checkout reuses dist/ (the build starts by
// removing it).
import { spawnSync } from 'node:child_process'
import { existsSync, readdirSync, statSync, writeFileSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'

export const root = resolve(fileURLToPath(new URL('..', import.meta.url)))
export const STAMP = join(root, 'dist', '.build-stamp')

/**
 * What the build reads: the sources, scenarios, fixtures, the demo, the build scripts and
 * configs, and the installed dependencies (the CLI bundles them, msw included: npm
 * rewrites node_modules/.package-lock.json on every install, --no-save ones too).
 */
const INPUTS = [
  'src',
  'scenarios',
  'fixtures',
  'examples/browser',
  'scripts',
  'tsup.config.ts',
  'tsconfig.json',
  'package.json',
  'package-lock.json',
  'node_modules/.package-lock.json',
]

/** The newest modification time (ms) under `path`, and the file that has it. */
function newest(path) {
  if (!existsSync(path)) return { ms: 0, file: undefined }
  const stat = statSync(path)
  if (!stat.isDirectory()) return { ms: stat.mtimeMs, file: path }
  let best = { ms: 0, file: undefined }
  for (const entry of readdirSync(path)) {
    if (entry === 'node_modules' || entry.startsWith('.')) continue
    const found = newest(join(path, entry))
    if (found.ms > best.ms) best = found
  }
  return best
}

/** Why dist/ must be rebuilt, or undefined when it is current. */
export function staleReason() {
  if (!existsSync(STAMP))
    return existsSync(join(root, 'dist'))
      ? 'dist/ was not built by npm run build'
      : 'first run: dist/ is built once, from half a minute on a quiet 2-core machine to 2.5 minutes on a busy one; later runs reuse it'
  const built = statSync(STAMP).mtimeMs
  for (const input of INPUTS) {
    const found = newest(join(root, input))
    if (found.ms > built) return `${found.file.slice(root.length + 1)} changed`
  }
  return undefined
}

/** Runs `npm run build` when dist/ is stale; the exit status of the build, or 0. */
export function buildIfStale() {
  const reason = staleReason()
  if (!reason) return 0
  process.stderr.write(`Building (${reason})...\n`)
  const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm'
  const build = spawnSync(npm, ['run', 'build', '--silent'], { stdio: 'inherit' })
  return build.status ?? 1
}

if (process.argv[2] === 'write') writeFileSync(STAMP, `${new Date().toISOString()}\n`)
if (process.argv[2] === 'build-if-stale') process.exitCode = buildIfStale()
