import { readFileSync } from 'node:fs'
import { expect, test } from 'vitest'
import { SANDBOX_VERSION } from './version.js'

test("the core's version constant is package.json's (bump both)", () => {
  const manifest = JSON.parse(
    readFileSync(new URL('../../../package.json', import.meta.url), 'utf8'),
  ) as { version: string }
  expect(SANDBOX_VERSION).toBe(manifest.version)
})
