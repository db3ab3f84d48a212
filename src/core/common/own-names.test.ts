import { describe, expect, test } from 'vitest'
import { resolveFixtures } from '../data/fixtures.js'
import { createSandbox, type SandboxOptions } from '../sandbox.js'
import { parseScenario } from '../scenarios/scenarios.js'
import { portOf } from '../pipeline/sandbox-port.js'
import { thrown } from './thrown.test-support.js'

// Names a file gives (plans, keys) are looked up as the file's own: Object's
// `constructor`, `toString`... are not plans, and `__proto__` cannot be one (issue 21).

const INHERITED = ['constructor', 'toString', '__proto__', 'hasOwnProperty', 'valueOf']
const FREE_PLAN = { free: { perMinute: 60, perDay: 1000 } }

async function get(sandbox: ReturnType<typeof createSandbox>, path: string, key: string) {
  const reply = await portOf(sandbox).handle(
    new Request(`https://x.test${path}`, { headers: { authorization: `Bearer ${key}` } }),
  )
  if (!reply) throw new Error('not answered')
  return reply
}

describe('fixtures', () => {
  test.each(INHERITED)(
    'a key on the plan "%s", which the file does not define, is an error naming the file, the field and the fix',
    (plan) => {
      const fixtures = { apiKeys: { plans: FREE_PLAN, keys: [{ key: 'k', plan }] } }
      const error = thrown(() => resolveFixtures(fixtures, '/work/fixtures.json'))
      expect(error.code).toBe('INVALID_FIXTURES')
      expect(error.message).toBe(
        `Failed to load fixtures from /work/fixtures.json: apiKeys.keys[0].plan "${plan}" is not one of the plans (free). Name a plan defined under apiKeys.plans, or add it there.`,
      )
      expect(() => createSandbox({ fixtures })).toThrow(
        `apiKeys.keys[0].plan "${plan}" is not one of the plans`,
      )
    },
  )

  test('a plan named "__proto__" is an error naming it, not a plan that silently vanishes', () => {
    const apiKeys = JSON.parse(
      '{"plans": {"free": {"perMinute": 1, "perDay": 2}, "__proto__": {"perMinute": 1, "perDay": 2}}, "keys": [{"key": "k", "plan": "free"}]}',
    )
    expect(thrown(() => resolveFixtures({ apiKeys }, 'api-keys.json')).message).toMatch(
      /^Failed to load fixtures from api-keys\.json: apiKeys\.plans must not name anything "__proto__"/,
    )
  })

  test('a plan the file does define as "constructor" is a plan like any other', async () => {
    const sandbox = createSandbox({
      count: 1,
      fixtures: {
        apiKeys: {
          plans: { constructor: { perMinute: 7, perDay: 9 } },
          keys: [{ key: 'k', plan: 'constructor' }],
        },
      },
    })
    const reply = await get(sandbox, '/v1/pets', 'k')
    expect(reply.status).toBe(200)
    expect(reply.headers['x-ratelimit-limit']).toBe('7')
    const session = await portOf(sandbox).handle(
      new Request('https://x.test/__sandbox/sessions', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: '{"id":"alice"}',
      }),
    )
    expect(JSON.parse(session?.text ?? '')).toEqual({
      id: 'alice',
      keys: { constructor: 'k.alice' },
    })
  })
})

describe('scenario files', () => {
  test.each(INHERITED.filter((name) => name !== '__proto__'))(
    'a scenario key on the plan "%s" is an error naming the scenario file, the field and the fix',
    (plan) => {
      const scenario = parseScenario(
        { name: 'odd', description: 'd', keys: { 'odd-key': plan } },
        '/work/odd.json',
      )
      const error = thrown(() => createSandbox({ scenarios: [scenario] }))
      expect(error.code).toBe('INVALID_SCENARIO')
      expect(error.message).toBe(
        `Failed to load the keys of the scenario "odd" (/work/odd.json): keys.odd-key names the plan "${plan}", which the fixtures do not have (free, pro, business, enterprise). Name one of those plans, or add the plan to the fixtures.`,
      )
    },
  )

  test.each([
    ['keys', '{"__proto__": "free"}'],
    ['rateLimits.plans', '{"__proto__": {"perMinute": 1, "perDay": 1}}'],
    ['faults', '{"__proto__": {"drop": 1}}'],
    ['errors', '{"__proto__": {"status": 503, "code": "down"}}'],
  ])(
    'a name "__proto__" in %s is an error naming the file and the field',
    (field, json) => {
      const data = { name: 'odd', description: 'd' } as Record<string, unknown>
      if (field === 'rateLimits.plans') data.rateLimits = { plans: JSON.parse(json) }
      else data[field] = JSON.parse(json)
      expect(thrown(() => parseScenario(data, '/work/odd.json')).message).toMatch(
        new RegExp(
          `^Failed to load the scenario /work/odd\\.json: ${field.replace('.', '\\.')} must not name anything "__proto__"`,
        ),
      )
    },
  )

  test('rateLimits.plans are read as own names: a plan "constructor" of the fixtures keeps its limits', async () => {
    const options: SandboxOptions = {
      count: 1,
      fixtures: {
        apiKeys: {
          plans: { constructor: { perMinute: 7, perDay: 9 } },
          keys: [{ key: 'k', plan: 'constructor' }],
        },
      },
      scenarios: [
        { name: 'tight', description: 'd', rateLimits: { plans: {}, exhausted: true } },
      ],
      scenario: 'tight',
    }
    const reply = await get(createSandbox(options), '/v1/pets', 'k')
    expect(reply.status).toBe(429)
    expect(reply.headers['x-ratelimit-limit']).toBe('7')
    expect(JSON.parse(reply.text).message).toContain('allows 7 requests a minute')
  })
})
