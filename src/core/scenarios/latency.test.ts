import { describe, expect, test } from 'vitest'
import { SandboxError } from '../common/errors.js'
import { isLatency, type Latency } from './latency.js'
import { createSandbox } from '../sandbox.js'
import { parseScenario } from './scenarios.js'

const REFUSED = [
  -5,
  Number.NaN,
  Number.POSITIVE_INFINITY,
  1e12,
  60_001,
  '250',
  null,
  [100, 500],
  { minMs: 500, maxMs: 100 },
  { minMs: -1, maxMs: 100 },
  { minMs: 0, maxMs: 1e12 },
  { minMs: 100 },
  { minMs: 100, maxMs: 200, jitter: 5 },
]
const label = (value: unknown) =>
  typeof value === 'number' ? String(value) : JSON.stringify(value)
const cases = (values: unknown[]) => values.map((value) => [label(value), value])
const TAKEN = [0, 250, 12.5, 60_000, { minMs: 0, maxMs: 60_000 }, { minMs: 5, maxMs: 5 }]

describe('latency is 0 to 60,000 ms, or { minMs, maxMs } with minMs <= maxMs', () => {
  // null is no option at all (test/node/option-names.test.ts); a scenario file refuses it.
  test.each(cases(REFUSED.filter((value) => value !== null)))(
    'createSandbox({ latency: %s }) is refused at creation, saying the rule',
    (_, latency) => {
      let error: unknown
      try {
        createSandbox({ latency: latency as never })
      } catch (caught) {
        error = caught
      }
      expect(error).toBeInstanceOf(SandboxError)
      expect((error as SandboxError).code).toBe('INVALID_OPTION')
      expect((error as SandboxError).message).toMatch(
        /^Failed to create the sandbox: option latency must be milliseconds from 0 to 60,000 \(e\.g\. 250\) or a range such as \{ "minMs": 100, "maxMs": 500 \} with minMs <= maxMs\. See docs\/options\.md#options: /,
      )
    },
  )

  test.each(cases(TAKEN))('%s is taken', (_, latency) => {
    expect(isLatency(latency)).toBe(true)
    expect(() => createSandbox({ latency: latency as Latency, count: 0 })).not.toThrow()
  })

  test.each(cases(REFUSED))(
    'a scenario file with latency %s names the file, the field and the rule',
    (_, latency) => {
      expect(() =>
        parseScenario({ name: 'slow', description: 'd', latency }, './slow.json'),
      ).toThrow(
        /^Failed to load the scenario \.\/slow\.json: latency must be milliseconds from 0 to 60,000 .* with minMs <= maxMs\. Fix the field named above/,
      )
    },
  )
})
