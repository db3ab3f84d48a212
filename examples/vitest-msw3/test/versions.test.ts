import { readFileSync } from 'node:fs'
import { expect, test } from 'vitest'

// This example exists to run the package on msw 3 and Vitest 5 (both need Node 22.12+):
// fail loudly if the install resolved anything else.
function major(name: string) {
  const file = new URL(`../node_modules/${name}/package.json`, import.meta.url)
  return Number(
    (JSON.parse(readFileSync(file, 'utf8')) as { version: string }).version.split('.')[0],
  )
}

test('runs on Node 22.12+, msw 3 and Vitest 5', () => {
  const [nodeMajor, nodeMinor] = process.versions.node.split('.').map(Number)
  expect(nodeMajor! > 22 || (nodeMajor === 22 && nodeMinor! >= 12)).toBe(true)
  expect(major('msw')).toBe(3)
  expect(major('vitest')).toBe(5)
})
