import { join } from 'node:path'
import { expect, test } from 'vitest'
import { ROOT } from '../hostile/express-bundle.js'

// The neighbour bench (bench/neighbour.js) judges a bystander's wait less the time the
// machine had no core for the server or the bystander (docs/performance.md#neighbours):
// that must take away the machine's part and never the server's own work.

interface Wait {
  startedAt: number
  ms: number
  coreWaitMs: number
}
interface NeighbourModule {
  coreWaitBetween(samples: [number, number][], from: number, to: number): number
  waitLessCoreWaits(wait: Wait, samples: [number, number][]): number
}
const load = async () =>
  (await import(join(ROOT, 'bench', 'neighbour.js'))) as NeighbourModule

test('the server busy with its own work for 300 ms counts whole', async () => {
  const { waitLessCoreWaits } = await load()
  // It never waited for a core: every sample says 10 ms waited since it started.
  const samples: [number, number][] = [
    [1000, 10],
    [1300, 10],
    [1400, 10],
  ]
  expect(waitLessCoreWaits({ startedAt: 1000, ms: 300, coreWaitMs: 0 }, samples)).toBe(
    300,
  )
})

test("the server's waits for a core inside the wait are taken away, read between samples", async () => {
  const { coreWaitBetween, waitLessCoreWaits } = await load()
  // 200 ms waited for a core between 1000 and 1300, evenly as far as the samples tell.
  const samples: [number, number][] = [
    [1000, 0],
    [1300, 200],
  ]
  expect(coreWaitBetween(samples, 1150, 1300)).toBeCloseTo(100)
  expect(waitLessCoreWaits({ startedAt: 1000, ms: 300, coreWaitMs: 0 }, samples)).toBe(
    100,
  )
})

test("the longer of the server's and the bystander's own core waits is taken away, not both", async () => {
  const { waitLessCoreWaits } = await load()
  const samples: [number, number][] = [
    [0, 0],
    [1000, 60],
  ]
  // The server waited 60 ms in [0, 1000]; the bystander 80 ms: 80 goes, 920 stays.
  expect(waitLessCoreWaits({ startedAt: 0, ms: 1000, coreWaitMs: 80 }, samples)).toBe(920)
  // Without samples (not Linux) only the bystander's own.
  expect(waitLessCoreWaits({ startedAt: 0, ms: 100, coreWaitMs: 0 }, [])).toBe(100)
})
