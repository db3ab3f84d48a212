// Installs petstore-sandbox into this example as users get it: `npm pack` of the
// repository (built first: `npm run build` at the root), then `npm install` here. In your
// own project, `npm install -D petstore-sandbox @playwright/test` replaces all of this.
import { execFileSync } from 'node:child_process'
import { copyFileSync, existsSync, mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'

const here = fileURLToPath(new URL('..', import.meta.url))
const root = join(here, '../..')

if (!existsSync(join(root, 'dist/cli/index.js'))) {
  console.error(
    'Failed to pack petstore-sandbox: the repository is not built. Run "npm run build" at its root first.',
  )
  process.exit(1)
}

const folder = mkdtempSync(join(tmpdir(), 'petstore-sandbox-pack-'))
try {
  const packed = execFileSync(
    'npm',
    ['pack', '--json', '--silent', '--pack-destination', folder],
    { cwd: root, encoding: 'utf8' },
  )
  const [{ filename }] = JSON.parse(packed)
  // A fixed name, so package.json's "file:petstore-sandbox.tgz" stays the same.
  copyFileSync(join(folder, filename), join(here, 'petstore-sandbox.tgz'))
} finally {
  rmSync(folder, { recursive: true, force: true })
}

// npm keeps an installed file: tarball whose path did not change; drop it so the new
// build is the one installed.
rmSync(join(here, 'node_modules/petstore-sandbox'), { recursive: true, force: true })
execFileSync(
  'npm',
  ['install', '--no-audit', '--no-fund', '--prefer-offline', '--loglevel=error'],
  {
    cwd: here,
    stdio: 'inherit',
    // @playwright/test downloads no browser when installed (the tests use Debian's
    // /usr/bin/chromium); the variable keeps it so should a version ever try.
    env: { ...process.env, PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD: '1' },
  },
)
console.log('Installed petstore-sandbox from a tarball of this repository.')
