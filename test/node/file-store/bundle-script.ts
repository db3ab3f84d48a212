import { fileURLToPath } from 'node:url'
import { build } from 'esbuild'

const root = fileURLToPath(new URL('../../..', import.meta.url))

/**
 * Bundles `lines` (an ES module importing the source by paths relative to the
 * repository, `./src/...ts`) into `outfile`, for a child `node` process.
 */
export async function bundleScript(lines: string[], outfile: string) {
  await build({
    stdin: { contents: lines.join('\n'), resolveDir: root, loader: 'ts' },
    outfile,
    bundle: true,
    platform: 'node',
    format: 'esm',
    logLevel: 'error',
  })
}
