import { describe, expect, test } from 'vitest'
import { createSandbox, type SandboxOptions } from '../sandbox.js'
import { portOf } from '../pipeline/sandbox-port.js'
import { BUILT_IN_SCENARIOS, defineScenario, parseScenario } from './scenarios.js'
import { thrown } from '../common/thrown.test-support.js'

// What a scenario may name beyond its own schema: plans the fixtures have, and a name no
// other scenario loaded at start has (docs/scenarios.md#your-own-scenarios).

const DEFAULT_PLANS = 'free, pro, business, enterprise'
const TEAM_FIXTURES: SandboxOptions['fixtures'] = {
  apiKeys: {
    plans: { team: { perMinute: 2, perDay: 10 } },
    keys: [{ key: 'team-key', plan: 'team' }],
  },
}

/** A scenario limiting `plan` to 5 requests a minute. */
const limiting = (plan: string, name = 'tight') => ({
  name,
  description: 'five a minute',
  rateLimits: { plans: { [plan]: { perMinute: 5, perDay: 100 } } },
})

async function put(
  sandbox: ReturnType<typeof createSandbox>,
  name: string,
  body: object,
) {
  const reply = await portOf(sandbox).handle(
    new Request(`https://x.test/__sandbox/scenarios/${name}`, {
      method: 'PUT',
      headers: { 'content-type': 'application/json', 'x-sandbox-session': 'alice' },
      body: JSON.stringify(body),
    }),
  )
  if (!reply) throw new Error('not answered')
  return { status: reply.status, body: JSON.parse(reply.text) as Record<string, string> }
}

describe('rateLimits.plans names plans of the fixtures', () => {
  test('a plan the fixtures do not have is an error naming the source, the field and the plans', () => {
    const error = thrown(() => createSandbox({ scenarios: [limiting('gold')] }))
    expect(error.code).toBe('INVALID_SCENARIO')
    expect(error.message).toBe(
      `Failed to load the scenario options.scenarios[0]: rateLimits.plans.gold names the plan "gold", which the fixtures do not have (${DEFAULT_PLANS}). Name one of those plans, or add the plan to the fixtures' apiKeys.plans (see docs/options.md#fixtures).`,
    )
  })

  test('a plan in the wrong case says which plan it means', () => {
    const error = thrown(() => createSandbox({ scenario: limiting('Free') }))
    expect(error.message).toBe(
      `Failed to load the scenario options.scenario: rateLimits.plans.Free names the plan "Free", which the fixtures do not have (${DEFAULT_PLANS}). Write "free": plan names are case-sensitive.`,
    )
  })

  test('a file keeps naming its path, and the plans are those of the fixtures given', () => {
    const fromFile = parseScenario(limiting('free'), '/work/tight.json')
    const error = thrown(() =>
      createSandbox({ fixtures: TEAM_FIXTURES, scenarios: [fromFile] }),
    )
    expect(error.message).toMatch(
      /^Failed to load the scenario \/work\/tight\.json: rateLimits\.plans\.free names the plan "free", which the fixtures do not have \(team\)\./,
    )
    expect(() =>
      createSandbox({ fixtures: TEAM_FIXTURES, scenarios: [limiting('team')] }),
    ).not.toThrow()
  })

  test('PUT /__sandbox/scenarios/{name} naming an unknown plan is 400 validation_failed, and nothing is defined', async () => {
    const sandbox = createSandbox({ count: 1 })
    const { name: _, ...body } = limiting('gold')
    const refused = await put(sandbox, 'tight', body)
    expect(refused.status).toBe(400)
    expect(refused.body.code).toBe('validation_failed')
    expect(refused.body.message).toContain(
      `rateLimits.plans.gold names the plan "gold", which the fixtures do not have (${DEFAULT_PLANS})`,
    )
    // 201, not 200: the refused definition left nothing to replace.
    expect((await put(sandbox, 'tight', { ...body, rateLimits: {} })).status).toBe(201)
  })

  test('a definition is checked against the fixtures loaded when it is made (a reload counts)', async () => {
    const sandbox = createSandbox({ count: 1 })
    await sandbox.reloadFixtures(TEAM_FIXTURES)
    const { name: _, ...team } = limiting('team')
    expect((await put(sandbox, 'tight', team)).status).toBe(201)
    const { name: __, ...free } = limiting('free')
    expect((await put(sandbox, 'tight', free)).status).toBe(400)
    expect(() => sandbox.addScenario(defineScenario(limiting('free', 'x')))).toThrow(
      'rateLimits.plans.free names the plan "free", which the fixtures do not have (team)',
    )
  })

  test('the built-in scenarios keep working under fixtures of other plans', () => {
    const countdown = BUILT_IN_SCENARIOS.find(
      (scenario) => scenario.name === 'rate-limit-countdown',
    )
    expect(() =>
      createSandbox({ fixtures: TEAM_FIXTURES, scenario: 'rate-limit-countdown' }),
    ).not.toThrow()
    expect(() =>
      createSandbox({ fixtures: TEAM_FIXTURES, scenario: countdown }),
    ).not.toThrow()
  })
})

describe('a name selects one scenario loaded at start', () => {
  test('two scenarios of the same name are an error naming both and the fix', () => {
    const first = parseScenario(limiting('free', 'shared'), '/work/a/s.json')
    const second = parseScenario(limiting('pro', 'shared'), '/work/b/s.json')
    const error = thrown(() => createSandbox({ scenarios: [first, second] }))
    expect(error.code).toBe('INVALID_SCENARIO')
    expect(error.message).toBe(
      'Failed to load the scenario /work/b/s.json: name "shared" is also the name of the scenario /work/a/s.json, which it would silently replace. Rename one of the two: every scenario loaded at start needs a name of its own.',
    )
    expect(
      thrown(() => createSandbox({ scenarios: [first], scenario: second })).message,
    ).toMatch(/^Failed to load the scenario \/work\/b\/s\.json: name "shared" is also/)
  })

  test('objects of the options are named by their place', () => {
    expect(
      thrown(() =>
        createSandbox({ scenarios: [limiting('free', 's'), limiting('pro', 's')] }),
      ).message,
    ).toMatch(
      /^Failed to load the scenario options\.scenarios\[1\]: name "s" is also the name of the scenario options\.scenarios\[0\]/,
    )
  })

  test('the same scenario again (one file, or the startup one also in scenarios) is no duplicate', () => {
    const file = parseScenario(limiting('free', 's'), '/work/s.json')
    const again = parseScenario(limiting('free', 's'), '/work/s.json')
    const literal = limiting('pro', 't')
    const sandbox = createSandbox({
      scenarios: [file, again, literal],
      scenario: literal,
    })
    expect(sandbox.startupScenario).toBe('t')
  })

  test('a scenario named like a built-in one is refused, unless it is that very definition', () => {
    const error = thrown(() =>
      createSandbox({
        scenarios: [parseScenario(limiting('free', 'rate-limited'), '/work/rl.json')],
      }),
    )
    expect(error.message).toBe(
      'Failed to load the scenario /work/rl.json: name "rate-limited" is the name of a built-in scenario, which a scenario loaded at start cannot replace. Give yours another name, e.g. "my-rate-limited" (the built-in one stays selectable as "rate-limited").',
    )
    const builtIn = BUILT_IN_SCENARIOS.find(
      (scenario) => scenario.name === 'rate-limited',
    )
    // The shipped file (scenarios/rate-limited.json) loaded by path is the same definition.
    const copy = JSON.parse(JSON.stringify(builtIn)) as object
    expect(
      createSandbox({
        scenarios: [parseScenario(copy, '/pkg/scenarios/rate-limited.json')],
      }).startupScenario,
    ).toBe('default')
    expect(createSandbox({ scenario: builtIn }).startupScenario).toBe('rate-limited')
  })

  test('addScenario (what --watch calls for the changed file) still replaces its scenario', () => {
    const sandbox = createSandbox({
      scenario: parseScenario(limiting('free', 's'), '/work/s.json'),
    })
    sandbox.addScenario(parseScenario(limiting('pro', 's'), '/work/s.json'))
    expect(sandbox.scenarios.get('s').rateLimits?.plans).toHaveProperty('pro')
  })
})

test('a scenario defined at run time seeds at most 10,000 pets; one loaded at start, up to 1,000,000', () => {
  const big = { name: 'big', description: 'd', data: { count: 10_001, seed: 7 } }
  expect(() =>
    parseScenario(big, 'PUT /__sandbox/scenarios/big', { action: 'define' }),
  ).toThrow(
    'Failed to define the scenario PUT /__sandbox/scenarios/big: data.count is 10,001, more than the 10,000 pets a scenario defined at run time seeds. Seed at most 10,000, or put the scenario in a file and load it at start (--scenario ./big.json), where data.count goes up to 1,000,000.',
  )
  expect(
    parseScenario({ ...big, data: { count: 10_000 } }, 'PUT', { action: 'define' }).data,
  ).toEqual({ count: 10_000 })
  expect(parseScenario(big, 'big.json').data).toEqual({ count: 10_001, seed: 7 })
})

test("a scenario defined at run time whose data gives no count is bounded by the sandbox's count, which it seeds", () => {
  const seeded = { name: 'seeded', description: 'd', data: { seed: 7 } }
  expect(() =>
    parseScenario(seeded, 'PUT /__sandbox/scenarios/seeded', {
      action: 'define',
      count: 50_000,
    }),
  ).toThrow(
    "Failed to define the scenario PUT /__sandbox/scenarios/seeded: its data seeds the sandbox's count, 50,000 pets, more than the 10,000 a scenario defined at run time seeds. Seed at most 10,000 (give data.count)",
  )
  expect(parseScenario(seeded, 'PUT', { action: 'define', count: 10_000 }).data).toEqual({
    seed: 7,
  })
  // Its own pets, or no data (the shared seed), seed nothing of the count.
  const own = { ...seeded, data: { pets: [{ id: 1, name: 'Rex', categoryId: 1 }] } }
  expect(parseScenario(own, 'PUT', { action: 'define', count: 50_000 }).name).toBe(
    'seeded',
  )
  const { data: _, ...plain } = seeded
  expect(parseScenario(plain, 'PUT', { action: 'define', count: 50_000 }).name).toBe(
    'seeded',
  )
  // A sandbox passes its own count.
  const sandbox = createSandbox({ count: 10_001 })
  expect(thrown(() => sandbox.session('s1').defineScenario(seeded)).message).toMatch(
    "its data seeds the sandbox's count, 10,001 pets",
  )
  expect(createSandbox().session('s1').defineScenario(seeded).created).toBe(true)
})
