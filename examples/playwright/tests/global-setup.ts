import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'

// A folder for tests/barrier.ts, one per run; the workers inherit the variable.
export default function globalSetup() {
  const folder = mkdtempSync(join(tmpdir(), 'petstore-playwright-barrier-'))
  process.env.BARRIER_DIR = folder
  return () => rmSync(folder, { recursive: true, force: true })
}
