import { describe, expect, test } from 'vitest'
import { dropShare, dropsRequest, unitHash } from './faults.js'
import { BUILT_IN_SCENARIOS, parseScenario, type Scenario } from './scenarios.js'

const flaky = BUILT_IN_SCENARIOS.find((scenario) => scenario.name === 'flaky-network')!
const faults = (faults: Scenario['faults']) => ({ faults })

/** The request numbers from 1 to `count` a scenario drops in one session. */
function dropped(
  scenario: Pick<Scenario, 'faults'>,
  { seed = 42, session = 'default', count = 40 } = {},
): number[] {
  const numbers: number[] = []
  for (let requestNumber = 1; requestNumber <= count; requestNumber++)
    if (dropsRequest(scenario, 'listPets', { seed, session, requestNumber }))
      numbers.push(requestNumber)
  return numbers
}

describe('dropsRequest', () => {
  test('flaky-network drops one request in five, for every operation', () => {
    expect(flaky.faults).toEqual({ '*': { drop: 0.2 } })
    expect(flaky.keys).toEqual({ 'sandbox-flaky-network-key': 'free' })
    for (const operation of ['listPets', 'createPet', 'getPet', undefined] as const)
      expect(dropShare(flaky, operation)).toBe(0.2)
  })

  test('the same seed, session and number give the same answer: pinned, so every runtime and release agrees', () => {
    // Changing the hash changes which requests users' recorded runs saw dropped.
    expect(dropped(flaky)).toEqual([2, 5, 7, 15, 19, 20, 23, 25, 36])
    expect(dropped(flaky, { session: 'alice' })).toEqual([13, 17, 21, 25, 33, 34, 36])
    expect(dropped(flaky)).toEqual(dropped(flaky))
  })

  test('another seed or session drops other requests', () => {
    const count = 200
    const base = dropped(flaky, { count })
    expect(dropped(flaky, { count, seed: 43 })).not.toEqual(base)
    expect(dropped(flaky, { count, session: 'default2' })).not.toEqual(base)
    // The parts cannot run into each other: "1:2" + "3" is not "1" + "23".
    expect(unitHash({ seed: 1, session: '2:3', requestNumber: 4 })).not.toBe(
      unitHash({ seed: 1, session: '2', requestNumber: 34 }),
    )
  })

  test.each([0.01, 0.05, 0.2, 0.5, 0.9])(
    'over many requests the dropped share is close to drop %s, with no pattern between neighbours',
    (drop) => {
      const count = 20_000
      for (const [seed, session] of [
        [42, 'default'],
        [7, 'alice'],
        [-3, 'ci-run-1289'],
      ] as const) {
        const numbers = dropped(faults({ '*': { drop } }), { seed, session, count })
        expect(Math.abs(numbers.length / count - drop)).toBeLessThan(0.01)
        // A drop tells nothing of the next request: a client's retry is not doomed.
        const set = new Set(numbers)
        const followed = numbers.filter((number) => set.has(number + 1)).length
        expect(Math.abs(followed / numbers.length - drop)).toBeLessThan(0.05)
      }
    },
  )

  test('0 never drops, 1 always does, no faults never do', () => {
    expect(dropped(faults({ '*': { drop: 0 } }), { count: 1000 })).toEqual([])
    expect(dropped(faults({ '*': { drop: 1 } }), { count: 1000 })).toHaveLength(1000)
    expect(dropped({}, { count: 1000 })).toEqual([])
  })

  test("an operation's own entry wins over *; a request of no operation follows *", () => {
    const scenario = faults({
      '*': { drop: 0.2 },
      getPet: { drop: 1 },
      createPet: { drop: 0 },
    })
    expect(dropShare(scenario, 'getPet')).toBe(1)
    expect(dropShare(scenario, 'createPet')).toBe(0)
    expect(dropShare(scenario, 'listPets')).toBe(0.2)
    expect(dropShare(scenario, undefined)).toBe(0.2)
    expect(dropShare(faults({ getPet: { drop: 1 } }), 'listPets')).toBe(0)
    // Names of Object's prototype are no operation: they follow *.
    expect(dropShare(faults({ '*': { drop: 0.2 } }), 'constructor')).toBe(0.2)
  })
})

describe('a scenario with faults', () => {
  const base = { name: 'f', description: 'x' }

  test('takes a share per operation or *', () => {
    expect(
      parseScenario(
        { ...base, faults: { '*': { drop: 0.5 }, getPet: { drop: 0 } } },
        'f.json',
      ).faults,
    ).toEqual({ '*': { drop: 0.5 }, getPet: { drop: 0 } })
  })

  test.each([
    [{ '*': { drop: 1.5 } }, /f\.json: faults\.\*\.drop must be at most 1\. /],
    [{ getPet: { drop: -0.1 } }, /faults\.getPet\.drop must be at least 0\. /],
    [
      { getPet: { drop: '0.2' } },
      /faults\.getPet\.drop must be a number, got the string "0\.2"/,
    ],
    [{ getPet: {} }, /faults\.getPet\.drop is required/],
    [
      { getPet: { drop: 0.1, delay: 5 } },
      /faults\.getPet has unknown field\(s\) "delay"/,
    ],
    [{ deletePet: { drop: 0.1 } }, /faults has unknown field\(s\) "deletePet"/],
    [{ '*': 0.2 }, /faults\.\* must be an object, got number 0\.2/],
  ])('%j names the file, the field and the fix', (value, message) => {
    let thrown: Error | undefined
    try {
      parseScenario({ ...base, faults: value }, 'f.json')
    } catch (error) {
      thrown = error as Error
    }
    expect(thrown?.message).toMatch(/^Failed to load the scenario f\.json: /)
    expect(thrown?.message).toMatch(message)
    expect(thrown?.message).toMatch(
      /Write faults as \{"<operation or \*>": \{"drop": <share from 0 to 1>\}\} with an operation of listPets, createPet, getPet or \*/,
    )
  })
})
