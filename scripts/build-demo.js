// Builds the browser demo (examples/browser) into dist/demo/: the page, its styles, the
// bundle with the package's browser entry, and msw's worker script from the installed
// msw, so the worker always matches the msw major the bundle was built with.
import { copyFileSync, mkdirSync, rmSync } from 'node:fs'
import { createRequire } from 'node:module'
import { dirname, join, resolve } from 'node:path'
import { fileURLToPath, pathToFileURL } from 'node:url'
import { build } from 'esbuild'

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..')
const example = join(root, 'examples/browser')

/** The demo imports the package by its public name, as an app does; here that name is the source. */
const packageSource = {
  name: 'petstore-sandbox-source',
  setup(pluginBuild) {
    pluginBuild.onResolve({ filter: /^petstore-sandbox\/browser$/ }, () => ({
      path: join(root, 'src/browser/index.ts'),
    }))
    pluginBuild.onResolve({ filter: /^petstore-sandbox\/browser\/inspector$/ }, () => ({
      path: join(root, 'src/browser/inspector-panel.ts'),
    }))
  },
}

/**
 * Bundles examples/browser into `outdir` (default dist/demo).
 * @example
 * await buildDemo({ outdir: 'dist/demo' })
 */
export async function buildDemo({ outdir = join(root, 'dist/demo') } = {}) {
  rmSync(outdir, { recursive: true, force: true })
  mkdirSync(outdir, { recursive: true })
  await build({
    absWorkingDir: root,
    entryPoints: [join(example, 'src/main.ts')],
    outdir,
    bundle: true,
    // Split so that server mode never loads the sandbox chunk (@msw/data, zod).
    splitting: true,
    format: 'esm',
    platform: 'browser',
    target: 'es2022',
    minify: true,
    // No source maps: they would triple the package for a demo.
    sourcemap: false,
    tsconfig: join(example, 'tsconfig.json'),
    plugins: [packageSource],
    define: { 'process.env.NODE_ENV': '"production"' },
    logLevel: 'warning',
  })
  copyFileSync(join(example, 'index.html'), join(outdir, 'index.html'))
  copyFileSync(join(example, 'styles.css'), join(outdir, 'styles.css'))
  const require = createRequire(import.meta.url)
  copyFileSync(
    require.resolve('msw/mockServiceWorker.js'),
    join(outdir, 'mockServiceWorker.js'),
  )
  return outdir
}

if (process.argv[1] && import.meta.url === pathToFileURL(resolve(process.argv[1])).href) {
  const outdir = await buildDemo()
  console.log(`Built the browser demo into ${outdir}`)
}
