import { readdirSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { test } from '@playwright/test'

/**
 * Waits until `parties` tests of this project have reached `phase`. The tests run in
 * different worker processes, so they meet through files in one folder of this run
 * (tests/global-setup.ts). It orders steps across workers, so that one worker's reset
 * happens while another's pet exists, whatever the timing: what the assertions show is
 * then certain, not a matter of luck.
 */
export async function barrier(
  phase: string,
  rank: number,
  parties: number,
  timeoutMs = 60_000,
) {
  const folder = process.env.BARRIER_DIR
  if (!folder) throw new Error('Failed to meet: BARRIER_DIR is not set (globalSetup).')
  const project = test.info().project.name
  const prefix = `${project}.${phase}.`
  writeFileSync(join(folder, `${prefix}${rank}`), '')
  const deadline = Date.now() + timeoutMs
  for (;;) {
    const arrived = readdirSync(folder).filter((name) => name.startsWith(prefix)).length
    if (arrived >= parties) return
    if (Date.now() > deadline) {
      throw new Error(
        `Failed to meet at "${phase}": ${arrived} of ${parties} tests of ${project} arrived. A test failed before it, or fewer workers than tests run at once (--workers).`,
      )
    }
    await new Promise((resolve) => setTimeout(resolve, 50))
  }
}
