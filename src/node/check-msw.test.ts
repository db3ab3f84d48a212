import { readFileSync } from 'node:fs'
import { describe, expect, test } from 'vitest'
import { SandboxError } from '../core/common/errors.js'
import { findMswProblem, readMswVersion } from './check-msw.js'

const entry = 'petstore-sandbox/node'

describe('the msw and Node check at the door', () => {
  test.each([
    ['2.15.0', '20.19.0'],
    ['2.15.0', '22.12.0'],
    ['2.99.1', '20.19.0'],
    ['3.0.5', '22.12.0'],
    ['3.0.5', '22.22.1'],
    ['3.0.5', '24.1.0'],
    ['3.0.0-beta.2', 'v23.0.0'],
  ])('msw %s on Node %s passes', (msw, node) => {
    expect(findMswProblem(entry, msw, node)).toBeUndefined()
  })

  test.each([
    ['3.0.5', '20.19.0', '20.19.0'],
    ['3.0.5', 'v22.11.0', '22.11.0'],
    ['3.1.0', '21.7.3', '21.7.3'],
    ['3.0.0-beta.2', '18.20.4', '18.20.4'],
  ])('msw %s on Node %s is refused, naming the cause and the fix', (msw, node, shown) => {
    const problem = findMswProblem(entry, msw, node)
    expect(problem).toBeInstanceOf(SandboxError)
    expect(problem?.code).toBe('WRONG_RUNTIME')
    expect(problem?.message).toBe(
      `Failed to load "petstore-sandbox/node": msw 3 needs Node 22.12 or newer; you run Node ${shown}. Upgrade Node, or install msw@^2.15.`,
    )
  })

  test.each(['2.14.2', '2.0.0', '1.3.5', '0.49.0'])(
    'msw %s is refused on any Node',
    (msw) => {
      for (const node of ['20.19.0', '22.12.0']) {
        expect(findMswProblem('petstore-sandbox/express', msw, node)?.message).toBe(
          `Failed to load "petstore-sandbox/express": it needs msw 2.15 or newer; you have msw ${msw}. Install msw@^2.15 (or msw@^3 on Node 22.12 or newer).`,
        )
      }
    },
  )

  test('an msw or a Node it cannot read is not blocked', () => {
    expect(findMswProblem(entry, undefined, '18.0.0')).toBeUndefined()
    expect(findMswProblem(entry, 'latest', '18.0.0')).toBeUndefined()
    expect(findMswProblem(entry, '3.0.5', 'unknown')).toBeUndefined()
  })

  test('reads the installed msw version through its exports map', () => {
    const file = new URL('../../node_modules/msw/package.json', import.meta.url)
    const { version } = JSON.parse(readFileSync(file, 'utf8')) as { version: string }
    expect(readMswVersion()).toBe(version)
    expect(version).toMatch(/^[23]\./)
  })

  test('the installed msw passes on this Node (the entries load)', () => {
    expect(findMswProblem(entry, readMswVersion(), process.versions.node)).toBeUndefined()
  })
})
