import { existsSync, readFileSync, statSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'

/** Files the standalone server serves beside the API, found in the installed package. */
export interface PackageAssets {
  /** The API's OpenAPI document (`dist/openapi.json`), when it was built. */
  openApiFile: string | undefined
  /** The control API's OpenAPI document (`dist/control-openapi.json`), when it was built. */
  controlOpenApiFile: string | undefined
  /** The browser demo's folder (`dist/demo`), when it was built. */
  demoDir: string | undefined
  /** The API reference page's folder (`dist/docs`), when it was built. */
  docsDir: string | undefined
  /** The request inspector page's folder (`dist/inspector`), when it was built. */
  inspectorDir: string | undefined
  version: string
}

let cached: PackageAssets | undefined

/**
 * Finds the package's own files from wherever this module was bundled to (`dist/`,
 * a shared chunk, or `src/` under vitest), so no path is baked in at build time.
 */
export function packageAssets(): PackageAssets {
  if (cached) return cached
  const root = findPackageRoot(dirname(fileURLToPath(import.meta.url)))
  const first = (...candidates: string[]) =>
    root
      ? candidates.map((path) => join(root, path)).find((path) => existsSync(path))
      : undefined
  const built = (name: string) => {
    const dir = root ? join(root, 'dist', name) : undefined
    return dir && isDirectory(dir) ? dir : undefined
  }
  cached = {
    openApiFile: first('dist/openapi.json'),
    controlOpenApiFile: first('dist/control-openapi.json'),
    demoDir: built('demo'),
    docsDir: built('docs'),
    inspectorDir: built('inspector'),
    version: root ? (readManifest(root)?.version ?? '0.0.0') : '0.0.0',
  }
  return cached
}

function findPackageRoot(start: string): string | undefined {
  let dir = start
  for (;;) {
    if (readManifest(dir)?.name === 'petstore-sandbox') return dir
    const parent = dirname(dir)
    if (parent === dir) return undefined
    dir = parent
  }
}

function readManifest(dir: string): { name?: string; version?: string } | undefined {
  try {
    return JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8'))
  } catch {
    return undefined
  }
}

function isDirectory(path: string) {
  try {
    return statSync(path).isDirectory()
  } catch {
    return false
  }
}
