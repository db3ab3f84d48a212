import { mkdirSync, rmSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { build } from 'esbuild'
import { afterAll, expect, test } from 'vitest'

// The short form of `npm run soak` (bench/soak.js): 15 s of mixed traffic against the
// current source, memory sampled after full collections. See bench/soak.js for the
// traffic and for how created pets are taken out of the memory figures.

const ROOT = fileURLToPath(new URL('../..', import.meta.url))
const SECONDS = 15
const folder = join(
  ROOT,
  'node_modules',
  '.cache',
  'petstore-sandbox-tests',
  `soak-${process.pid}`,
)
afterAll(() => rmSync(folder, { recursive: true, force: true }))

interface SoakResult {
  ok: boolean
  problems: string[]
  requests: number
  journal: number
  createdPets: number
  lanes: Record<string, { statuses: Record<string, number> }>
}
interface SoakModule {
  runSoak(options: { seconds: number; entry: string }): Promise<SoakResult>
}

test(`${SECONDS} s of mixed traffic: memory stays flat, no 5xx, no connection errors`, async () => {
  // The soak server imports the Express entry; bundle it from src, as the CLI tests do,
  // so the test never runs a stale dist/.
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
  const soak = join(ROOT, 'bench', 'soak.js')
  const { runSoak } = (await import(soak)) as SoakModule
  const result = await runSoak({ seconds: SECONDS, entry })
  const { heapMiB, rssMiB, rps, perPetBytes } = result as unknown as Record<
    string,
    unknown
  >
  console.info('soak', JSON.stringify({ rps, perPetBytes, heapMiB, rssMiB }))
  expect(result.problems, JSON.stringify(result, null, 2)).toEqual([])
  expect(result.ok).toBe(true)
  expect(result.journal).toBeLessThanOrEqual(100)
  // Every lane got the answers it was built for.
  expect(result.lanes.free?.statuses['429']).toBeGreaterThan(0)
  expect(result.lanes.tooLarge?.statuses['413']).toBeGreaterThan(0)
  expect(result.lanes.bad?.statuses['401']).toBeGreaterThan(0)
  expect(result.createdPets).toBeGreaterThan(0)
}, 60_000)
