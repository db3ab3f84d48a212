import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { expect, test } from 'vitest'

// What the published declarations hold (issue 22): the CLI's pinned-msw fast path and the
// adapters' port stay internal. Neither reaches the entries' .d.ts (or the chunks they
// share), so no user can come to depend on them. Runs on dist/ (npm run build).
const DIST = fileURLToPath(new URL('../dist', import.meta.url))
const INTERNAL = [
  'fastPath',
  'MswFastPath',
  'overridesEverywhere',
  'untrustedOrigin',
  'recordOverride',
  'useOverrides',
  'rateLimitHeaders',
  'HandleInit',
  'refuse(',
  'owns(',
  'handle(',
]

function declarations(): string[] {
  return readdirSync(DIST, { recursive: true, encoding: 'utf8' })
    .filter((file) => /\.d\.c?ts$/.test(file) && !file.includes('node_modules'))
    .map((file) => join(DIST, file))
}

test('the .d.ts of every entry (index, node, express, browser, inspector) names none of the internals', () => {
  const files = declarations()
  for (const entry of [
    'index',
    'node/index',
    'express/index',
    'browser/index',
    'browser/inspector',
  ])
    expect(files).toContain(join(DIST, `${entry}.d.ts`))
  const found = files.flatMap((file) => {
    const text = readFileSync(file, 'utf8')
    return INTERNAL.filter((name) => text.includes(name)).map(
      (name) => `${file}: ${name}`,
    )
  })
  expect(found).toEqual([])
})
