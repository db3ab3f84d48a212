// npm run test:examples: every example under examples/ that has a package.json with a
// "test" script runs against the package as users get it. The repository is packed
// once; each example installs its own dependencies plus that tarball (--no-save, so
// its package.json stays the one a user copies) and runs `npm test`. Nothing is cached
// outside the repository: the tarball lives in .tmp/ and is removed at the end; each
// example's node_modules stays in the example (git-ignored) for the next run.
//
//   node scripts/test-examples.js [name ...]   only these examples (e.g. jest vitest)
//   node scripts/test-examples.js --leg 2      the examples of CI's second leg
//   node scripts/test-examples.js --list       the examples it would run
//   PETSTORE_SANDBOX_TARBALL=/path/x.tgz       use this tarball instead of packing
//   EXAMPLES_TIMEOUT_SECONDS=300               the limit for each install and test
//
// An example may add "petstoreSandboxExample" to its package.json:
//   { "node": ">=22.12" }          run it on that Node (installs node@22 from npm, no-save)
//   { "leg": 2 }                   an example for .ci/run's second leg (Node 22, msw 3),
//                                  which runs it with --leg 2 against its own build; a run
//                                  without names leaves it out (name it to run it anyway)
//   { "variants": [{ "name": "jest 29", "install": ["jest@29", ...] }] }
//                                  run `npm test` again with these packages installed
import { spawn } from 'node:child_process'
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'

const root = fileURLToPath(new URL('..', import.meta.url))
const examplesDir = join(root, 'examples')
const timeoutSeconds = Number(process.env.EXAMPLES_TIMEOUT_SECONDS ?? 300)
const args = process.argv.slice(2)

/** Every example with a "test" script, and the CI leg each belongs to (1 unless it says). */
function examples() {
  return readdirSync(examplesDir, { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .map((entry) => entry.name)
    .flatMap((name) => {
      const file = join(examplesDir, name, 'package.json')
      if (!existsSync(file)) return []
      const manifest = JSON.parse(readFileSync(file, 'utf8'))
      if (!manifest.scripts?.test) return []
      return [{ name, leg: manifest.petstoreSandboxExample?.leg ?? 1 }]
    })
    .sort((a, b) => a.name.localeCompare(b.name))
}

function run(command, commandArgs, { cwd, env = process.env, quiet = false }) {
  return new Promise((resolve, reject) => {
    const started = Date.now()
    const child = spawn(command, commandArgs, {
      cwd,
      env,
      stdio: quiet ? ['ignore', 'pipe', 'pipe'] : 'inherit',
      detached: true,
    })
    let output = ''
    child.stdout?.on('data', (chunk) => (output += chunk))
    child.stderr?.on('data', (chunk) => (output += chunk))
    const timer = setTimeout(() => {
      try {
        process.kill(-child.pid, 'SIGKILL')
      } catch {
        // already gone
      }
      reject(
        new Error(`${command} ${commandArgs.join(' ')} took over ${timeoutSeconds} s`),
      )
    }, timeoutSeconds * 1000)
    child.on('error', reject)
    child.on('close', (code) => {
      clearTimeout(timer)
      if (code === 0) resolve({ output, seconds: (Date.now() - started) / 1000 })
      else {
        if (quiet) process.stderr.write(output)
        reject(new Error(`${command} ${commandArgs.join(' ')} exited with ${code}`))
      }
    })
  })
}

const npmInstall = [
  'install',
  '--no-audit',
  '--no-fund',
  '--no-package-lock',
  '--loglevel=error',
]

function nodeIsAtLeast(range) {
  const [major, minor] = /(\d+)\.(\d+)/.exec(range).slice(1).map(Number)
  const [have, haveMinor] = process.versions.node.split('.').map(Number)
  return have > major || (have === major && haveMinor >= minor)
}

async function main() {
  const found = examples()
  const all = found.map((example) => example.name)
  const legAt = args.indexOf('--leg')
  const leg = legAt === -1 ? 1 : Number(args[legAt + 1])
  if (legAt !== -1 && ![1, 2].includes(leg)) {
    throw new Error(
      `--leg takes 1 or 2 (CI's legs), got ${args[legAt + 1] ?? 'nothing'}.`,
    )
  }
  const names = args.filter(
    (arg, index) => arg !== '--list' && arg !== '--leg' && index !== legAt + 1,
  )
  const ofLeg = found.filter((example) => example.leg === leg).map((e) => e.name)
  if (args.includes('--list')) {
    console.log(
      found
        .map((e) => (e.leg === 1 ? e.name : `${e.name} (leg ${e.leg}: --leg ${e.leg})`))
        .join('\n'),
    )
    return
  }
  const unknown = names.filter((name) => !all.includes(name))
  if (unknown.length) {
    throw new Error(
      `No example named ${unknown.join(', ')}; there are: ${all.join(', ')}.`,
    )
  }
  const chosen = names.length ? names : ofLeg
  const tmp = join(root, '.tmp', 'examples')
  let tarball = process.env.PETSTORE_SANDBOX_TARBALL
  if (!tarball) {
    if (!existsSync(join(root, 'dist', 'node', 'index.cjs'))) {
      throw new Error(
        'dist/ is missing: run "npm run build" first (npm run test:examples does).',
      )
    }
    rmSync(tmp, { recursive: true, force: true })
    mkdirSync(tmp, { recursive: true })
    const { output } = await run('npm', ['pack', '--json', '--pack-destination', tmp], {
      cwd: root,
      quiet: true,
    })
    const [{ filename }] = JSON.parse(output.slice(output.indexOf('[')))
    tarball = join(tmp, filename)
  }
  console.log(`== examples against ${tarball}`)
  const results = []
  try {
    for (const name of chosen) {
      const cwd = join(examplesDir, name)
      const manifest = JSON.parse(readFileSync(join(cwd, 'package.json'), 'utf8'))
      const settings = manifest.petstoreSandboxExample ?? {}
      const extra = []
      // An example that needs a newer Node than this one gets it from the npm registry,
      // as .ci/run's second leg does; its package.json stays unchanged.
      const needsNode = settings.node && !nodeIsAtLeast(settings.node)
      if (needsNode) extra.push(`node@${/(\d+)/.exec(settings.node)[1]}`)
      const env = needsNode
        ? {
            ...process.env,
            PATH: `${join(cwd, 'node_modules', '.bin')}:${process.env.PATH}`,
          }
        : process.env
      const passes = [
        { name, install: [] },
        ...(settings.variants ?? []).map((v) => ({ ...v, name: `${name} (${v.name})` })),
      ]
      for (const pass of passes) {
        const started = Date.now()
        console.log(
          `\n== ${pass.name}: npm install${needsNode ? ` (with ${extra.join(' ')})` : ''}`,
        )
        try {
          await run(
            'npm',
            [...npmInstall, '--no-save', tarball, ...extra, ...pass.install],
            {
              cwd,
              quiet: true,
            },
          )
          const node = (
            await run('node', ['--version'], { cwd, env, quiet: true })
          ).output.trim()
          console.log(`== ${pass.name}: npm test (Node ${node})`)
          await run('npm', ['test'], { cwd, env })
          results.push({
            name: pass.name,
            ok: true,
            seconds: (Date.now() - started) / 1000,
          })
        } catch (error) {
          console.error(`!! ${pass.name}: ${error.message}`)
          results.push({
            name: pass.name,
            ok: false,
            seconds: (Date.now() - started) / 1000,
          })
        }
      }
    }
  } finally {
    if (!process.env.PETSTORE_SANDBOX_TARBALL)
      rmSync(tmp, { recursive: true, force: true })
  }
  console.log('\n== examples')
  for (const result of results) {
    console.log(
      `${result.ok ? 'pass' : 'FAIL'}  ${result.name}  ${result.seconds.toFixed(1)} s`,
    )
  }
  if (results.some((result) => !result.ok)) process.exitCode = 1
}

main().catch((error) => {
  console.error(error.message)
  process.exitCode = 1
})
