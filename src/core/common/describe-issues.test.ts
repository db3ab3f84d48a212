import { expect, test } from 'vitest'
import { resolveFixtures } from '../data/fixtures.js'
import { quoted } from './describe-issues.js'
import { createSandbox } from '../sandbox.js'
import { parseScenario } from '../scenarios/scenarios.js'
import { validateNewPet } from '../api/validation.js'

// Messages name the seed's types: an integer field is "integer", never "number".

test('NewPet: categoryId is an integer, missing or of another type', () => {
  const message = (body: unknown) => {
    const result = validateNewPet(body)
    return result.ok ? '' : result.message
  }
  expect(message({ name: 'Rex' })).toBe('Invalid body: categoryId is required (integer).')
  expect(message({ name: 'Rex', categoryId: '1' })).toBe(
    'Invalid body: categoryId must be an integer, got the string "1".',
  )
  expect(message({ categoryId: 1 })).toBe('Invalid body: name is required (string).')
})

test('fixtures and scenario files name their integer fields the same way', () => {
  expect(() => resolveFixtures({ pets: [{ name: 'Rex' }] }, 'pets.json')).toThrow(
    'Failed to load fixtures from pets.json: pets[0].categoryId is required (integer).',
  )
  expect(() =>
    resolveFixtures(
      {
        apiKeys: {
          plans: { free: { perMinute: '60', perDay: 1000 } },
          keys: [{ key: 'k', plan: 'free' }],
        },
      },
      'api-keys.json',
    ),
  ).toThrow('apiKeys.plans.free.perMinute must be an integer, got the string "60"')
  expect(() =>
    parseScenario(
      { name: 'a', description: 'd', errors: { getPet: { code: 'gone' } } },
      'a.json',
    ),
  ).toThrow(
    'Failed to load the scenario a.json: errors.getPet.status is required (integer).',
  )
})

test('quoted writes a value for a message and never throws, whatever it is given', () => {
  const cyclic: Record<string, unknown> = {}
  cyclic.self = cyclic
  expect(quoted('abc')).toBe('"abc"')
  expect(quoted({ frozen: 'yes' })).toBe('{"frozen":"yes"}')
  expect(quoted('x'.repeat(100), 10)).toBe(`"${'x'.repeat(9)}…`)
  expect(quoted(NaN)).toBe('NaN')
  expect(quoted(12n)).toBe('the BigInt 12n')
  expect(quoted({ now: 1n })).toBe('an object')
  expect(quoted(cyclic)).toBe('an object')
  expect(quoted(() => 1)).toBe('a function')
  expect(quoted(undefined)).toBe('undefined')
  expect(quoted(Symbol('s'))).toBe('symbol')
})

test('an option of the wrong shape holding a BigInt or a cycle gets its message, not a TypeError', () => {
  expect(() => createSandbox({ clock: { now: 1n } as never })).toThrow(
    'option clock must be { now?, frozen? } with frozen true or false, got an object',
  )
})
