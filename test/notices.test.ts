import { existsSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { expect, test } from 'vitest'

// The CLI bundle inlines MIT, ISC and BSD code whose licences ask for their notices to
// travel with it: every build writes them (scripts/write-notices.js).
const ROOT = fileURLToPath(new URL('..', import.meta.url))

test('the build writes the notices of the bundled packages', () => {
  const file = join(ROOT, 'dist/THIRD_PARTY_NOTICES.md')
  expect(existsSync(file), 'run "npm run build" first (npm test does)').toBe(true)
  const notices = readFileSync(file, 'utf8')
  for (const name of ['express', 'yargs', 'msw', 'zod', '@msw/data', '@faker-js/faker'])
    expect(notices).toMatch(new RegExp(`^## ${name.replace('/', '\\/')}@\\S+ \\(`, 'm'))
  expect(notices).toMatch(/\(ISC\)/)
  expect(notices).toContain('Permission is hereby granted')
  expect(existsSync(join(ROOT, 'dist/metafile-esm.json'))).toBe(false)
  expect(readFileSync(join(ROOT, 'LICENSE'), 'utf8')).toMatch(/^MIT License/)
})
