// Builds the standalone server's own pages into dist/: /docs/ (Swagger UI from
// swagger-ui-dist over the server's /openapi.json, or /__sandbox/openapi.json for the
// control API, picked on the page) and /inspector/ (the live request
// journal). Everything they load is in their folder: no CDN, works offline.
import {
  copyFileSync,
  existsSync,
  mkdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs'
import { createRequire } from 'node:module'
import { dirname, join, resolve } from 'node:path'
import { fileURLToPath, pathToFileURL } from 'node:url'
import { build } from 'esbuild'
import { renderDocsPreview } from './pages/docs-preview.js'

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..')

const page = ({ title, head = '', body }) => `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${title}</title>
<link rel="icon" href="/favicon.svg" type="image/svg+xml">
${head}
</head>
<body>
${body}
</body>
</html>
`

const nav = (current) =>
  `<nav class="site-nav" aria-label="Sandbox pages">
<a href="/" data-token>petstore-sandbox</a>
<a href="/docs/" data-token${current === 'docs' ? ' aria-current="page"' : ''}>API reference</a>
<a href="/inspector/" data-token${current === 'inspector' ? ' aria-current="page"' : ''}>Request inspector</a>
<a href="/openapi.json">OpenAPI document</a>
</nav>`

const NAV_CSS = `
body { margin: 0; background: #fff; color: #111827; font: 15px/1.45 system-ui, -apple-system, "Segoe UI", sans-serif; }
.site-nav { display: flex; flex-wrap: wrap; gap: 1.25rem; padding: .6rem 1.25rem; background: #0f172a; }
.site-nav a { color: #f8fafc; text-decoration: none; }
.site-nav a:first-child { font-weight: 700; }
.site-nav a[aria-current] { text-decoration: underline; text-underline-offset: 4px; }
.site-nav a:focus-visible { outline: 3px solid #93c5fd; outline-offset: 2px; }
main#inspector { max-width: 72rem; margin: 1.25rem auto; padding: 0 1.25rem; }
`

/**
 * Builds both pages into `outdir` (default dist).
 * @example
 * await buildPages({ outdir: 'dist' })
 */
export async function buildPages({ outdir = join(root, 'dist') } = {}) {
  const [openapi, control] = ['openapi.json', 'control-openapi.json'].map((name) => {
    const file = join(outdir, name)
    if (!existsSync(file)) {
      throw new Error(
        `${file} is missing: /docs/ lists the operations of that document. Run "node scripts/write-openapi.js" first (npm run build does).`,
      )
    }
    return JSON.parse(readFileSync(file, 'utf8'))
  })
  const docsDir = join(outdir, 'docs')
  const inspectorDir = join(outdir, 'inspector')
  for (const dir of [docsDir, inspectorDir]) {
    rmSync(dir, { recursive: true, force: true })
    mkdirSync(dir, { recursive: true })
  }
  await build({
    absWorkingDir: root,
    entryPoints: {
      'docs/docs': join(root, 'src/browser/docs-page.ts'),
      'inspector/inspector': join(root, 'src/browser/inspector-page.ts'),
    },
    outdir,
    bundle: true,
    format: 'esm',
    platform: 'browser',
    target: 'es2022',
    minify: true,
    sourcemap: false,
    logLevel: 'warning',
  })

  const require = createRequire(import.meta.url)
  const swagger = dirname(require.resolve('swagger-ui-dist/package.json'))
  for (const file of ['swagger-ui-bundle.js', 'swagger-ui.css', 'LICENSE']) {
    copyFileSync(join(swagger, file), join(docsDir, file))
  }
  writeFileSync(join(docsDir, 'nav.css'), NAV_CSS)
  copyFileSync(join(root, 'scripts/pages/docs.css'), join(docsDir, 'docs.css'))
  writeFileSync(
    join(docsDir, 'index.html'),
    page({
      title: 'API reference · petstore-sandbox',
      head: [
        // The document is fetched while Swagger UI's 1.7 MB script downloads and compiles,
        // not after it (Swagger UI's own fetch then takes it from the preload).
        '<link rel="preload" href="/openapi.json" as="fetch" crossorigin>',
        '<link rel="stylesheet" href="./swagger-ui.css">',
        '<link rel="stylesheet" href="./nav.css">',
        '<link rel="stylesheet" href="./docs.css">',
        '<script src="./swagger-ui-bundle.js" defer></script>',
        '<script type="module" src="./docs.js"></script>',
      ].join('\n'),
      body: `${nav('docs')}
<main>
<section class="sandbox-bar" aria-labelledby="sandbox-bar-title">
<h1 id="sandbox-bar-title">API reference</h1>
<p>Every operation of the Pet Adoption Service v1 API and of the sandbox's control API, from this server's two OpenAPI documents: <a href="/openapi.json">the API's</a> and <a href="/__sandbox/openapi.json">the control API's</a>. <strong>Try it out</strong> calls this sandbox. Parts marked <span class="sandbox-mark">sandbox only</span> do not exist in the real API.</p>
<div class="sandbox-key">
<div class="sandbox-field">
<label for="openapi-document">Document</label>
<select id="openapi-document">
<option value="api" selected>Pet Adoption Service API (/openapi.json)</option>
<option value="control">Sandbox control API (/__sandbox/openapi.json)</option>
</select>
</div>
<div class="sandbox-field" data-for-document="api">
<label for="demo-key">Demo key for Try it out</label>
<select id="demo-key"><option value="sandbox-free-key" selected>sandbox-free-key (free)</option></select>
</div>
<p class="sandbox-note" data-for-document="api">Sent as <code>Authorization: Bearer &lt;key&gt;</code>; demo keys are not secrets. Each operation also takes <code>X-Sandbox-Scenario</code> and <code>X-Sandbox-Session</code>.</p>
<p class="sandbox-note" data-for-document="control" hidden>The control API takes no API key: <strong>Try it out</strong> calls it as it is (beyond loopback, with the control token of the page's link).</p>
</div>
</section>
${renderDocsPreview(openapi, control)}
<div id="swagger-ui" hidden></div>
</main>`,
    }),
  )

  writeFileSync(join(inspectorDir, 'nav.css'), NAV_CSS)
  writeFileSync(
    join(inspectorDir, 'index.html'),
    page({
      title: 'Request inspector · petstore-sandbox',
      head: [
        '<link rel="stylesheet" href="./nav.css">',
        '<script type="module" src="./inspector.js"></script>',
      ].join('\n'),
      body: `${nav('inspector')}
<main id="inspector"></main>`,
    }),
  )
  return { docsDir, inspectorDir }
}

if (process.argv[1] && import.meta.url === pathToFileURL(resolve(process.argv[1])).href) {
  const { docsDir, inspectorDir } = await buildPages()
  console.log(`Built the server's pages into ${docsDir} and ${inspectorDir}`)
}
