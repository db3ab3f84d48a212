import { describe, expect, test } from 'vitest'
import { SandboxError } from '../common/errors.js'
import { createSandbox } from '../sandbox.js'
import type { Scenario } from '../scenarios/scenarios.js'
import { exportWorld, SESSION_FORMAT, type SessionExport } from './session-export.js'
import { checkSessionExport, parseSessionExport } from './session-import.js'
import { restoreWorld, type RestoreTarget } from './session-restore.js'
import type { SandboxWorld } from '../world/world.js'

const flaky: Scenario = {
  name: 'flaky-get',
  description: 'getPet fails with 503',
  errors: { getPet: { status: 503, code: 'service_unavailable' } },
}

/** A session of a sandbox with a pet of its own, a frozen clock, a scenario and a request. */
async function usedSession() {
  const sandbox = createSandbox({ seed: 42, count: 3 })
  const world = sandbox.session('alice') as SandboxWorld
  await world.ready
  await world.pets.create({ name: 'Rex', categoryId: 2, status: 'pending' })
  world.clock.freeze('2031-05-01T10:00:00.000Z')
  world.useScenario('rate-limited')
  world.journal.add({
    at: '2031-05-01T10:00:00.000Z',
    method: 'POST',
    path: '/v1/pets?x=1',
    status: 201,
    durationMs: 2,
    scenario: 'rate-limited',
    body: '{"name":"Rex","categoryId":2}',
  })
  return { sandbox, world }
}

function exportOf(world: SandboxWorld, scenarios: Scenario[] = []): SessionExport {
  return exportWorld({
    session: world.id,
    seed: 42,
    count: 3,
    scenario: world.scenario.name,
    scenarios,
    clock: world.clock,
    pets: world.pets.snapshot(),
    journal: world.journal,
  })
}

/** How a session world of a sandbox takes an export, with its run-time scenarios kept here. */
function targetOf(sandbox: ReturnType<typeof createSandbox>, world: SandboxWorld) {
  const defined: Scenario[] = []
  const target: RestoreTarget = {
    checkImport: (pets) => {
      const refusal = world.pets.importRefusal(pets)
      if (refusal) throw new Error(refusal)
    },
    restorePets: (pets) => world.pets.restore(pets),
    clock: world.clock,
    hasScenario: (name) => sandbox.scenarios.has(name),
    defineScenarios: (scenarios) => void defined.push(...scenarios),
    useScenario(name) {
      const own = defined.find((scenario) => scenario.name === name)
      world.useScenario(own ?? name)
    },
  }
  return { target, defined }
}

describe('exportWorld', () => {
  test('carries seed, count, scenario, clock, pets and the journal, oldest first, as plain JSON', async () => {
    const { world } = await usedSession()
    const data = exportOf(world, [flaky])
    expect(data).toMatchObject({
      format: SESSION_FORMAT,
      session: 'alice',
      seed: 42,
      count: 3,
      scenario: 'rate-limited',
      scenarios: [flaky],
      clock: { now: '2031-05-01T10:00:00.000Z', frozen: true },
      journalComplete: true,
    })
    expect(data.pets).toHaveLength(4)
    expect(data.pets[3]).toEqual({ id: 4, name: 'Rex', categoryId: 2, status: 'pending' })
    expect(data.journal.map((entry) => [entry.id, entry.path])).toEqual([
      [1, '/v1/pets?x=1'],
    ])
    expect(JSON.parse(JSON.stringify(data))).toEqual(data)
    // A copy: changing it changes nothing of the world.
    ;(data.pets[3] as { name: string }).name = 'changed'
    ;(data.journal[0] as { path: string }).path = '/changed'
    expect(world.pets.get(4)?.name).toBe('Rex')
    expect(world.journal.recent()[0]?.path).toBe('/v1/pets?x=1')
  })

  test('says the journal is incomplete once it dropped a request', async () => {
    const sandbox = createSandbox({ journalSize: 1 })
    const world = sandbox.session('bob') as SandboxWorld
    for (const path of ['/v1/pets', '/v1/pets/1']) {
      world.journal.add({
        at: '2031-01-01T00:00:00.000Z',
        method: 'GET',
        path,
        status: 200,
        durationMs: 1,
        scenario: 'default',
      })
    }
    const data = exportOf(world)
    expect(data.journal.map((entry) => entry.path)).toEqual(['/v1/pets/1'])
    expect(data.journalComplete).toBe(false)
  })
})

describe('restoreWorld', () => {
  test('gives a session of another sandbox the same pets, scenario and frozen clock, and a fresh journal', async () => {
    const { world } = await usedSession()
    const data = parseSessionExport(
      JSON.parse(JSON.stringify(exportOf(world))),
      'the test',
    )
    const other = createSandbox({ seed: 7, count: 10 })
    const copy = other.session('carried') as SandboxWorld
    await restoreWorld(targetOf(other, copy).target, data, 'the test')
    expect(copy.pets.snapshot()).toEqual(world.pets.snapshot())
    expect(copy.db.pets.findFirst((q) => q.where({ id: 4 }))?.name).toBe('Rex')
    expect(copy.scenario.name).toBe('rate-limited')
    expect(copy.clock.state()).toEqual({ now: '2031-05-01T10:00:00.000Z', frozen: true })
    expect(copy.journal.recent()).toEqual([])
    // A create goes on from the carried ids.
    expect((await copy.pets.create({ name: 'Next', categoryId: 1 })).id).toBe(5)
  })

  test('sets a running clock to the carried time, still running', async () => {
    const { world } = await usedSession()
    const data = exportOf(world)
    data.clock = { now: '2030-01-01T00:00:00.000Z', frozen: false }
    const other = createSandbox({ clock: { now: '2040-01-01T00:00:00Z', frozen: true } })
    const copy = other.session('carried') as SandboxWorld
    await restoreWorld(targetOf(other, copy).target, data, 'the test')
    const state = copy.clock.state()
    expect(state.frozen).toBe(false)
    // Running since: within a minute of the carried time, never before it.
    expect(
      Date.parse(state.now) - Date.parse('2030-01-01T00:00:00.000Z'),
    ).toBeGreaterThanOrEqual(0)
    expect(Date.parse(state.now) - Date.parse('2030-01-01T00:00:00.000Z')).toBeLessThan(
      60_000,
    )
  })

  test('defines the carried run-time scenarios and selects one of them by name', async () => {
    const { world } = await usedSession()
    const data = exportOf(world, [flaky])
    data.scenario = 'flaky-get'
    const other = createSandbox()
    const copy = other.session('carried') as SandboxWorld
    const { target, defined } = targetOf(other, copy)
    await restoreWorld(target, data, 'the test')
    expect(defined).toEqual([flaky])
    expect(copy.scenario).toEqual(flaky)
  })

  test('refuses a scenario neither loaded nor carried, before it changes anything', async () => {
    const { world } = await usedSession()
    const data = exportOf(world)
    data.scenario = 'from-a-file'
    const other = createSandbox({
      count: 2,
      clock: { now: '2035-01-01T00:00:00Z', frozen: true },
    })
    const copy = other.session('carried') as SandboxWorld
    await copy.ready
    const before = { pets: copy.pets.snapshot(), clock: copy.clock.state() }
    const restoring = restoreWorld(targetOf(other, copy).target, data, 'alice.json')
    await expect(restoring).rejects.toThrow(
      'Failed to import the session from alice.json: its scenario "from-a-file" is not loaded in this sandbox, nor defined in the export\'s scenarios.',
    )
    expect({ pets: copy.pets.snapshot(), clock: copy.clock.state() }).toEqual(before)
    expect(copy.scenario.name).toBe('default')
  })
})

describe('checkSessionExport', () => {
  async function valid(): Promise<Record<string, unknown>> {
    const { world } = await usedSession()
    return JSON.parse(JSON.stringify(exportOf(world, [flaky]))) as Record<string, unknown>
  }
  const refusal = (value: unknown, root?: string) => {
    const checked = checkSessionExport(value, root === undefined ? {} : { root })
    if (checked.ok) throw new Error('expected a refusal')
    return checked.message
  }

  test('takes an export as it was exported', async () => {
    const data = await valid()
    const checked = checkSessionExport(data)
    expect(checked.ok && checked.value).toEqual(data)
  })

  test('names from.format and the format it must be, with a hint for the formats it knows', async () => {
    const data = await valid()
    expect(refusal({ ...data, format: 'petstore-sandbox/session@2' })).toBe(
      'from.format is "petstore-sandbox/session@2"; it must be "petstore-sandbox/session@1" (an export of another version of petstore-sandbox: export it again with this one)',
    )
    expect(refusal({ format: 'petstore-sandbox/state@1', pets: [] })).toMatch(
      /^from\.format is "petstore-sandbox\/state@1"; it must be "petstore-sandbox\/session@1" \(that is a --persist state file/,
    )
    expect(refusal({ pets: [] })).toBe(
      'from.format is missing; it must be "petstore-sandbox/session@1"',
    )
    expect(refusal([1, 2])).toBe(
      'from must be an object, the JSON of a session export ("format": "petstore-sandbox/session@1"), got an array',
    )
  })

  test.each([
    [
      'a pet without a name',
      (d: any) => (d.pets[3].name = ''),
      'from.pets[3].name must not be empty',
    ],
    [
      'a status out of the enum',
      (d: any) => (d.pets[0].status = 'lost'),
      'from.pets[0].status must be one of "available", "pending", "sold"',
    ],
    [
      'two pets with one id',
      (d: any) => (d.pets[1].id = 1),
      'from.pets[1].id 1 appears twice (also from.pets[0].id)',
    ],
    [
      'a seed that is no integer',
      (d: any) => (d.seed = 1.5),
      'from.seed must be an integer',
    ],
    [
      'a clock without frozen',
      (d: any) => delete d.clock.frozen,
      'from.clock.frozen is required (boolean)',
    ],
    [
      'a clock that is no date',
      (d: any) => (d.clock.now = 'soon'),
      'from.clock.now must be an ISO 8601 date',
    ],
    [
      'a clock past 9999',
      (d: any) => (d.clock.now = '+010000-01-01T00:00:00Z'),
      'is outside the years 1970 to 9999',
    ],
    [
      'a misspelt scenario field',
      (d: any) => (d.scenarios[0].erors = {}),
      'from.scenarios[0] has unknown field(s) "erors"',
    ],
    [
      'a carried scenario with keys',
      (d: any) => (d.scenarios[0].keys = { k: 'free' }),
      'from.scenarios[0].keys must be left out',
    ],
    [
      'a scenario defined twice',
      (d: any) => d.scenarios.push(d.scenarios[0]),
      'from.scenarios[1].name "flaky-get" is defined twice in from.scenarios',
    ],
    [
      'a scenario whose auth fields exclude each other',
      (d: any) => (d.scenarios[0].auth = { expireAllKeys: true, rejectAllKeys: true }),
      'from.scenarios[0].auth.expireAllKeys and auth.rejectAllKeys are both true',
    ],
    [
      'a journal entry without a status',
      (d: any) => delete d.journal[0].status,
      'from.journal[0].status is required (integer)',
    ],
    [
      'journalComplete that is no boolean',
      (d: any) => (d.journalComplete = 'yes'),
      'from.journalComplete must be a boolean',
    ],
  ])('names the field of %s', async (_, change, message) => {
    const data = await valid()
    change(data)
    expect(refusal(data)).toContain(message)
  })

  test("a file's own fields are named without a root", async () => {
    const data = await valid()
    ;(data.pets as Array<{ name: string }>)[2]!.name = ''
    expect(refusal(data, '')).toBe('pets[2].name must not be empty')
    expect(refusal({ ...data, format: 'x' }, '')).toMatch(/^format is "x"; it must be/)
  })

  test('takes an export without its journal (trimmed to fit), which is then not complete', async () => {
    const data = await valid()
    delete data.journal
    delete data.journalComplete
    const checked = checkSessionExport(data)
    expect(checked.ok && [checked.value.journal, checked.value.journalComplete]).toEqual([
      [],
      false,
    ])
  })

  test('holds the ids to the room maxPets leaves', async () => {
    const data = await valid()
    ;(data.pets as Array<{ id: number }>)[3]!.id = Number.MAX_SAFE_INTEGER - 5
    expect(checkSessionExport(data, { maxPets: 10 }).ok).toBe(false)
    expect(checkSessionExport(data, { maxPets: 5 }).ok).toBe(true)
  })
})

test('parseSessionExport throws a SandboxError naming the source and the field, with the fix', async () => {
  const error = (() => {
    try {
      parseSessionExport({ format: 'nope' }, 'alice.json', { root: '' })
    } catch (thrown) {
      return thrown
    }
  })()
  expect(error).toBeInstanceOf(SandboxError)
  expect(error).toMatchObject({
    code: 'INVALID_SESSION_EXPORT',
    message:
      'Failed to import the session from alice.json: format is "nope"; it must be "petstore-sandbox/session@1". Use what GET /__sandbox/export (or sandbox.exportSession()) returned, unchanged; see docs/sessions-carry.md.',
  })
})

test('a carried scenario whose record names "__proto__" is refused naming it, not dropped', () => {
  const sandbox = createSandbox({ seed: 42, count: 3 })
  const world = sandbox.session('alice') as SandboxWorld
  const data = JSON.parse(
    JSON.stringify(
      exportOf(world, [
        { name: 'odd', description: 'd', faults: { '*': { drop: 0.5 } } },
      ]),
    ).replace('"*"', '"__proto__"'),
  )
  const checked = checkSessionExport(data)
  expect(checked.ok ? '' : checked.message).toBe(
    'from.scenarios[0].faults must not name anything "__proto__": JavaScript objects cannot hold that name, so it would be lost',
  )
})
