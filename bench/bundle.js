// The browser entry's share of an app bundle (issue 16): esbuild bundles, minifies and
// gzips a page that starts msw's worker with one handler, once with msw alone (the
// baseline: setupWorker from msw/browser and http from msw) and once with
// setupSandboxWorker from the built dist/browser entry as well; the difference is what
// the sandbox adds. Also names the largest packages of the sandbox page, and what the
// inspector entry adds for an app that imports it too.
import { build } from 'esbuild'
import { gzipSync } from 'node:zlib'

const MSW_PAGE = `import { setupWorker } from 'msw/browser'
import { http } from 'msw'
globalThis.start = () => setupWorker(http.get('/x', () => new Response('x'))).start()`
const SANDBOX_PAGE = `${MSW_PAGE}
import { setupSandboxWorker } from './dist/browser/index.js'
globalThis.startSandbox = () => setupSandboxWorker({ seed: 42 }).start()`

const PAGES = {
  msw: MSW_PAGE,
  sandbox: SANDBOX_PAGE,
  // The inspector panel is an entry of its own (a devtool an app imports on demand): what
  // it adds when an app does import it, beside the worker.
  inspector: `${SANDBOX_PAGE}
import { openInspector } from './dist/browser/inspector.js'
globalThis.inspect = (worker) => openInspector(worker)`,
}

async function bundle(root, contents) {
  const result = await build({
    stdin: { contents, resolveDir: root, loader: 'js', sourcefile: 'page.js' },
    absWorkingDir: root,
    bundle: true,
    minify: true,
    format: 'esm',
    platform: 'browser',
    target: 'es2022',
    write: false,
    metafile: true,
    define: { 'process.env.NODE_ENV': '"production"' },
    logLevel: 'error',
  })
  const code = result.outputFiles[0].contents
  const packages = {}
  for (const [file, { bytesInOutput }] of Object.entries(
    Object.values(result.metafile.outputs)[0].inputs,
  )) {
    const name =
      /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(file)?.[1] ??
      (file.startsWith('dist/') ? 'petstore-sandbox (dist)' : file)
    packages[name] = (packages[name] ?? 0) + bytesInOutput
  }
  return {
    minBytes: code.length,
    gzipBytes: gzipSync(code, { level: 9 }).length,
    packages,
  }
}

/** Bytes of the msw page and of the sandbox page, their difference, and a breakdown. */
export async function measureBundle(root) {
  const msw = await bundle(root, PAGES.msw)
  const sandbox = await bundle(root, PAGES.sandbox)
  const inspector = await bundle(root, PAGES.inspector)
  const added = Object.entries(sandbox.packages)
    .map(([name, bytes]) => [name, bytes - (msw.packages[name] ?? 0)])
    .filter(([, bytes]) => bytes > 512)
    .sort((a, b) => b[1] - a[1])
  return {
    msw: { minBytes: msw.minBytes, gzipBytes: msw.gzipBytes },
    sandbox: { minBytes: sandbox.minBytes, gzipBytes: sandbox.gzipBytes },
    added: {
      minKb: (sandbox.minBytes - msw.minBytes) / 1024,
      gzipKb: (sandbox.gzipBytes - msw.gzipBytes) / 1024,
    },
    // What `petstore-sandbox/browser/inspector` adds on top, for an app that imports it.
    inspector: {
      minKb: (inspector.minBytes - sandbox.minBytes) / 1024,
      gzipKb: (inspector.gzipBytes - sandbox.gzipBytes) / 1024,
    },
    // Minified bytes each package adds to the page (before gzip).
    addedByPackage: Object.fromEntries(added),
  }
}
