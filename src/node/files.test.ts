import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { afterAll, describe, expect, test } from 'vitest'
import { createSandbox } from '../core/sandbox.js'
import {
  loadFixturesFile,
  loadScenarioFile,
  readSessionFile,
  resolveNodeOptions,
  type NodeSandboxOptions,
} from './files.js'

// The JSON files the sandbox reads (scenarios, fixtures, --load exports), as editors and
// users write them.

const dir = mkdtempSync(join(tmpdir(), 'petstore-files-'))
afterAll(() => rmSync(dir, { recursive: true, force: true }))

/** Writes `value` as JSON at `name` under the test folder; returns its path. */
function write(name: string, value: unknown, prefix = ''): string {
  const path = join(dir, name)
  mkdirSync(join(path, '..'), { recursive: true })
  writeFileSync(path, `${prefix}${JSON.stringify(value, null, 2)}`, 'utf8')
  return path
}

/** What Notepad and other Windows editors put before UTF-8 text. */
const BOM = '\uFEFF'

const start = (options: NodeSandboxOptions) => createSandbox(resolveNodeOptions(options))

describe('a UTF-8 byte order mark at the start of a JSON file is skipped', () => {
  test('a scenario file', () => {
    const path = write('bom/scenario.json', { name: 'bom', description: 'd' }, BOM)
    expect(loadScenarioFile(path).name).toBe('bom')
  })

  test('a fixtures file and the files of a fixtures folder', () => {
    const apiKeys = {
      plans: { team: { perMinute: 2, perDay: 10 } },
      keys: [{ key: 'team-key', plan: 'team' }],
    }
    const file = write('bom/fixtures.json', { apiKeys }, BOM)
    expect(loadFixturesFile(file).apiKeys?.plans).toHaveProperty('team')
    write('bom/fixtures/api-keys.json', apiKeys, BOM)
    write('bom/fixtures/categories.json', [{ id: 1, name: 'Dogs' }], BOM)
    expect(loadFixturesFile(join(dir, 'bom/fixtures')).categories).toEqual([
      { id: 1, name: 'Dogs' },
    ])
  })

  test('a session export (--load)', () => {
    const path = write('bom/export.json', { format: 'x' }, BOM)
    expect(readSessionFile(path)).toEqual({ format: 'x' })
  })

  test('a BOM anywhere else is still a JSON error naming the file', () => {
    const path = join(dir, 'bom/late.json')
    writeFileSync(path, `{"name": "late",${BOM} "description": "d"}`)
    expect(() => loadScenarioFile(path)).toThrow(
      `Failed to load the scenario file ${path}: it is not valid JSON`,
    )
  })
})

describe('scenario files and the sandbox they load into', () => {
  test('two files with the same name are an error naming both files, the name and the fix', () => {
    const a = write('dup/a/s.json', { name: 'shared', description: 'first' })
    const b = write('dup/b/s.json', { name: 'shared', description: 'second' })
    expect(() => start({ scenarios: [a, b] })).toThrow(
      `Failed to load the scenario ${b}: name "shared" is also the name of the scenario ${a}, which it would silently replace. Rename one of the two: every scenario loaded at start needs a name of its own.`,
    )
  })

  test('the same file twice, or as the startup scenario too, loads once', () => {
    const path = write('same/s.json', { name: 'same', description: 'd' })
    expect(start({ scenarios: [path, path], scenario: path }).startupScenario).toBe(
      'same',
    )
  })

  test('a file with the name of a built-in scenario is refused', () => {
    const path = write('builtin/rate-limited.json', {
      name: 'rate-limited',
      description: 'mine',
    })
    expect(() => start({ scenario: path })).toThrow(
      `Failed to load the scenario ${path}: name "rate-limited" is the name of a built-in scenario`,
    )
  })

  test("a built-in's shipped file, loaded again, is the built-in: it runs under fixtures of other plans", () => {
    const shipped = fileURLToPath(
      new URL('../../scenarios/rate-limit-countdown.json', import.meta.url),
    )
    const fixtures = {
      apiKeys: {
        plans: { team: { perMinute: 100, perDay: 10_000 } },
        keys: [{ key: 'team-key', plan: 'team' }],
      },
    }
    const sandbox = start({ scenario: shipped, fixtures })
    expect(sandbox.scenario.name).toBe('rate-limit-countdown')
    // A copy with a change is the user's own scenario: its plans are checked.
    const changed = write('builtin/countdown.json', {
      ...JSON.parse(readFileSync(shipped, 'utf8')),
      name: 'my-countdown',
    })
    expect(() => start({ scenario: changed, fixtures })).toThrow(
      /rateLimits\.plans\.free names the plan "free", which the fixtures do not have \(team\)/,
    )
  })

  test('a rateLimits.plans name the fixtures lack is an error naming the file and the plans', () => {
    const path = write('plans/tight.json', {
      name: 'tight',
      description: 'd',
      rateLimits: { plans: { Free: { perMinute: 5, perDay: 100 } } },
    })
    expect(() => start({ scenarios: [path] })).toThrow(
      `Failed to load the scenario ${path}: rateLimits.plans.Free names the plan "Free", which the fixtures do not have (free, pro, business, enterprise). Write "free": plan names are case-sensitive.`,
    )
  })
})

test('a fixtures folder with none of the three files is an error naming it, not the default data', () => {
  const folder = join(dir, 'misnamed-fixtures')
  write('misnamed-fixtures/apikeys.json', { plans: {}, keys: [] })
  expect(() => loadFixturesFile(folder)).toThrow(
    `Failed to load the fixtures from ${folder}: the folder holds none of api-keys.json, categories.json and pets.json. Name the files exactly so (any of the three), or point to the folder that holds them; see docs/options.md#fixtures.`,
  )
  write('misnamed-fixtures/categories.json', [{ id: 1, name: 'Dogs' }])
  expect(loadFixturesFile(folder)).toEqual({ categories: [{ id: 1, name: 'Dogs' }] })
})
