import { rmSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, expect, test } from 'vitest'
import { bundleExpressEntry, ROOT } from './express-bundle.js'

// The short form of `npm run soak` (bench/soak.js): 15 s of mixed traffic against the
// current source, memory sampled after full collections. See bench/soak.js for the
// traffic and for how created pets are taken out of the memory figures.

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
  // The soak server imports the Express entry, bundled from src.
  const entry = await bundleExpressEntry(folder)
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
