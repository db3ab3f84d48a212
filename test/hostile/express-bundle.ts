import { mkdirSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { build } from 'esbuild'

export const ROOT = fileURLToPath(new URL('../..', import.meta.url))

/**
 * Bundles the Express entry from src into `folder` (made if needed) and returns its
 * path: bench/soak-server.js imports it, so the soak tests never run a stale dist/.
 */
export async function bundleExpressEntry(folder: string): Promise<string> {
  mkdirSync(folder, { recursive: true })
  const entry = join(folder, 'express.mjs')
  await build({
    entryPoints: [join(ROOT, 'src/express/index.ts')],
    outfile: entry,
    bundle: true,
    platform: 'node',
    format: 'esm',
    packages: 'external',
    logLevel: 'error',
  })
  return entry
}
