import { execFile } from 'node:child_process'
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { promisify } from 'node:util'

const ROOT = fileURLToPath(new URL('..', import.meta.url))
const run = promisify(execFile)

/** An empty ES-module project beside the packed tarball of this checkout. */
export interface PackedApp {
  /** The temporary folder holding both: remove it when done. */
  folder: string
  /** The project's folder. */
  app: string
  /** The tarball `npm pack` made of this checkout's dist/. */
  tarball: string
}

/**
 * Packs this checkout (as `npm publish` would) into a temporary folder and makes an empty
 * project named `name` beside it, as msw's test/modules does: the package as users get
 * it. Install the tarball with `npmInstall(app, tarball, ...)`.
 */
export async function createPackedApp(name: string): Promise<PackedApp> {
  const folder = mkdtempSync(join(tmpdir(), `petstore-${name}-`))
  const { stdout } = await run('npm', ['pack', '--json', '--pack-destination', folder], {
    cwd: ROOT,
  })
  const [{ filename }] = JSON.parse(stdout) as [{ filename: string }]
  const app = join(folder, 'app')
  mkdirSync(app)
  writeFileSync(
    join(app, 'package.json'),
    JSON.stringify({ name, private: true, type: 'module' }),
  )
  return { folder, app, tarball: join(folder, filename) }
}

/** `npm install` of these specs into `app`, quietly, from the cache where it can. */
export async function npmInstall(app: string, ...specs: string[]) {
  await run(
    'npm',
    [
      'install',
      '--no-audit',
      '--no-fund',
      '--prefer-offline',
      '--loglevel=error',
      ...specs,
    ],
    { cwd: app },
  )
}
