import { createSandbox, SandboxError, SESSION_FORMAT } from 'petstore-sandbox'
import { describe, expect, test } from 'vitest'
import { validateHar } from '../har-schema/validate-har.js'
import { throughHandlers } from './through-handlers.js'

const plain = throughHandlers('sandbox-free-key')
const alice = throughHandlers('sandbox-free-key.alice')
const bug = throughHandlers('sandbox-free-key.alice-bug')

/** A sandbox whose session alice created a pet, set its clock and chose a scenario. */
async function aliceSandbox() {
  const sandbox = createSandbox({ seed: 42, count: 5 })
  expect((await alice.post(sandbox, 'Rex')).status).toBe(201)
  const session = sandbox.session('alice')
  session.clock.freeze('2029-05-01T10:00:00Z')
  session.useScenario('missing-pet')
  return sandbox
}

/** The export of a session alice that created 3 pets (ids 3 to 5) over 2 seeded ones. */
async function threeCreated() {
  const source = createSandbox({ seed: 42, count: 2 })
  for (const name of ['A', 'B', 'C'])
    expect((await alice.post(source, name)).status).toBe(201)
  return source.exportSession('alice')
}

/** Imports `data` as the sessions one and two at once: how each ended, in that order. */
const importBoth = (sandbox: ReturnType<typeof createSandbox>, data: unknown) =>
  Promise.allSettled([
    sandbox.importSession('one', data),
    sandbox.importSession('two', data),
  ])

describe('sandbox.exportSession and importSession', () => {
  test("a colleague's session, imported into another sandbox, answers the same", async () => {
    const data = await (await aliceSandbox()).exportSession('alice')
    expect(data).toMatchObject({
      format: SESSION_FORMAT,
      session: 'alice',
      scenario: 'missing-pet',
      clock: { now: '2029-05-01T10:00:00.000Z', frozen: true },
      journalComplete: true,
    })
    expect(data.journal.map((entry) => [entry.method, entry.status])).toEqual([
      ['POST', 201],
    ])

    // Another seed and count: the pets come from the export, not from the seed.
    const mine = createSandbox({ seed: 7, count: 2 })
    const world = await mine.importSession('alice-bug', JSON.parse(JSON.stringify(data)))
    expect(world.id).toBe('alice-bug')
    expect(world.clock.state()).toEqual({ now: '2029-05-01T10:00:00.000Z', frozen: true })
    expect(world.journal.recent()).toEqual([])
    expect((await bug.ask(mine, '/v1/pets/6')).status).toBe(404) // missing-pet
    world.useScenario('default')
    const rex = await bug.ask(mine, '/v1/pets/6')
    expect(await rex.json()).toEqual({ id: 6, name: 'Rex', categoryId: 1 })
    const listed = (await (await bug.ask(mine, '/v1/pets?limit=100')).json()) as unknown[]
    expect(listed).toEqual(data.pets)
    expect(mine.sessions().map((session) => session.id)).toEqual(['alice-bug'])
  })

  test('the default session without an id; `default` replaces its pets (as --load does)', async () => {
    const source = createSandbox({ count: 3 })
    source.clock.freeze('2030-01-01T00:00:00Z')
    const data = await source.exportSession()
    expect(data.session).toBe('default')
    const target = createSandbox({ count: 9 })
    await target.importSession('default', data)
    expect(target.state().counts.pets).toBe(3)
    expect(target.clock.state().now).toBe('2030-01-01T00:00:00.000Z')
  })

  test('refuses a live id, a bad export naming its field, and leaves no session behind', async () => {
    const data = await (await aliceSandbox()).exportSession('alice')
    const target = createSandbox()
    target.session('taken')
    await expect(target.importSession('taken', data)).rejects.toThrow(
      'a session of that id is live',
    )
    const broken = { ...data, pets: [{ ...data.pets[0], name: '' }] }
    const refused = target.importSession('fresh', broken)
    await expect(refused).rejects.toBeInstanceOf(SandboxError)
    await expect(refused).rejects.toThrow(
      'Failed to import the session from importSession(): pets[0].name must not be empty.',
    )
    await expect(
      target.importSession('fresh', { ...data, scenario: 'nope' }),
    ).rejects.toThrow('its scenario "nope" is not loaded in this sandbox')
    expect(target.sessions().map((session) => session.id)).toEqual(['taken'])
  })

  test("an import within the pet limits or not at all: maxPets per world, maxTotalPets across them (507, as a create's)", async () => {
    const source = createSandbox({ seed: 42, count: 2 })
    for (const name of ['A', 'B', 'C'])
      expect((await alice.post(source, name)).status).toBe(201)
    const data = await source.exportSession('alice')
    expect(data.pets).toHaveLength(5)

    // Three created pets (ids 3 to 5) where a world keeps two.
    const small = createSandbox({ seed: 42, count: 2, maxPets: 2 })
    await expect(small.importSession('alice-bug', data)).rejects.toThrow(
      'The export holds 3 created pets (ids the seeded data does not have); a world of this sandbox keeps at most 2 (maxPets, --max-pets).',
    )
    expect(small.sessions()).toEqual([])

    // Room for four across the worlds, two of them taken by the default world's creates.
    const shared = createSandbox({ seed: 42, count: 2, maxTotalPets: 4 })
    for (const name of ['D', 'E'])
      expect((await plain.post(shared, name)).status).toBe(201)
    const refused = await alice.ask(shared, '/__sandbox/sessions', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ id: 'alice-bug', from: data }),
    })
    expect(refused.status).toBe(507)
    expect(await refused.json()).toEqual({
      code: 'storage_full',
      status: 507,
      message:
        'The sandbox has room for 2 more created pets across its worlds (maxTotalPets, --max-total-pets), and the export holds 3. End the sessions you no longer need (DELETE /__sandbox/sessions/{id}), or start the sandbox with a larger limit.',
    })
    expect(shared.sessions()).toEqual([])
    // Into the default world, whose own two created pets it replaces: 3 of 4.
    await shared.importSession('default', data)
    expect(shared.state().counts.pets).toBe(5)
  })

  test("an import's carried scenarios count what they seed, and are checked before anything changes", async () => {
    const source = createSandbox({ seed: 42, count: 2 })
    const session = source.session('alice')
    session.defineScenario({ name: 'crowd', description: 'd', data: { count: 30 } })
    session.useScenario('crowd')
    const data = await source.exportSession('alice')
    expect(data.scenarios.map((scenario) => scenario.name)).toEqual(['crowd'])

    // Room for 20 across the worlds: the 30 pets the scenario seeds do not fit.
    const small = createSandbox({ seed: 42, count: 2, maxTotalPets: 20 })
    await expect(small.importSession('alice-bug', data)).rejects.toThrow(
      'The sandbox has room for 20 more created pets across its worlds (maxTotalPets, --max-total-pets), and the export holds 0 and its scenarios seed 30 more.',
    )
    expect(small.sessions()).toEqual([])
    // Into the default world: nothing of it changed, not even its clock.
    small.clock.freeze('2030-01-01T00:00:00Z')
    await expect(small.importSession('default', data)).rejects.toThrow(/seed 30 more/)
    expect(small.clock.state().now).toBe('2030-01-01T00:00:00.000Z')
    expect(small.scenario.name).toBe('default')

    // A definition a run-time scenario may not have (over 10,000 pets), refused first too.
    const huge = {
      ...data,
      scenarios: [{ name: 'crowd', description: 'd', data: { count: 20_000 } }],
    }
    await expect(createSandbox().importSession('default', huge)).rejects.toThrow(
      'data.count is 20,000, more than the 10,000 pets a scenario defined at run time seeds',
    )
  })

  test('imports started together are counted one after the other: the second does not overrun the quota', async () => {
    const data = await threeCreated()
    // Room for 4: each import of 3 fits alone, both together do not.
    const shared = createSandbox({ seed: 42, count: 2, maxTotalPets: 4 })
    const results = await importBoth(shared, data)
    expect(results.map((result) => result.status)).toEqual(['fulfilled', 'rejected'])
    expect((results[1] as PromiseRejectedResult).reason.message).toMatch(
      'The sandbox has room for 1 more created pets',
    )
    expect(shared.sessions().map((session) => session.id)).toEqual(['one'])
  })

  test("an import's definitions are applied as checked, as a whole with the pets they come with", async () => {
    const source = createSandbox({ seed: 42, count: 2 })
    const session = source.session('alice')
    session.defineScenario({ name: 'a', description: 'd', data: { count: 1 } })
    session.defineScenario({ name: 'b', description: 'd', data: { count: 4 } })
    const data = await source.exportSession('alice')
    const names = async (sandbox: ReturnType<typeof createSandbox>) =>
      (await sandbox.exportSession()).scenarios.map(({ name, data }) => [
        name,
        data?.count,
      ])

    // Room for 10: the default world's 8 created pets go, the 5 seeded by a and b come.
    // One by one, b was judged against the 8 still there, and a stayed defined alone.
    const target = createSandbox({ seed: 42, count: 2, maxTotalPets: 10 })
    for (let n = 0; n < 8; n++)
      expect((await plain.post(target, `P${n}`)).status).toBe(201)
    await target.importSession('default', data)
    expect(await names(target)).toEqual([
      ['a', 1],
      ['b', 4],
    ])
    expect(target.state().counts.pets).toBe(2)

    // A world keeps 10 seeded by its definitions: replacing a (8) with a (0) makes room
    // for b (8), whatever the order the export lists them in.
    const tight = createSandbox({ seed: 42, count: 2, maxPets: 10 })
    tight.defineScenario({ name: 'a', description: 'd', data: { count: 8 } })
    const reordered = {
      ...data,
      scenarios: [
        { name: 'c', description: 'd', data: { count: 1 } },
        { name: 'b', description: 'd', data: { count: 8 } },
        { name: 'a', description: 'd', data: { count: 0 } },
      ],
    }
    await tight.importSession('default', reordered)
    expect(await names(tight)).toEqual([
      ['a', 0],
      ['c', 1],
      ['b', 8],
    ])
  })

  test('a session that ends while it is imported (evicted for a newer one) gives back what the import counted', async () => {
    const data = await threeCreated()
    const shared = createSandbox({ seed: 42, count: 2, maxTotalPets: 4, maxSessions: 1 })
    const results = await importBoth(shared, data)
    expect(results.map((result) => result.status)).toEqual(['rejected', 'fulfilled'])
    expect((results[0] as PromiseRejectedResult).reason.message).toMatch(
      'the session ended (deleted, expired or evicted for a newer one) while it was being imported',
    )
    expect(shared.sessions().map((session) => session.id)).toEqual(['two'])
    // two holds 3 of the 4: one more create, then the quota is full (nothing leaked).
    expect((await plain.post(shared, 'D')).status).toBe(201)
    expect((await plain.post(shared, 'E')).status).toBe(507)
  })

  test('exporting a session that is not live is an error naming it', async () => {
    await expect(createSandbox().exportSession('nobody')).rejects.toThrow(
      'Failed to export the session "nobody": there is no live session "nobody".',
    )
  })
})

describe('sandbox.exportHar', () => {
  test("is the session's journal as valid HAR 1.2, on the origin given", async () => {
    const sandbox = await aliceSandbox()
    await alice.ask(sandbox, '/v1/pets/999')
    const har = sandbox.exportHar('alice', 'http://127.0.0.1:4010')
    expect(validateHar(har)).toEqual([])
    expect(
      har.log.entries.map((entry) => [entry.request.method, entry.request.url]),
    ).toEqual([
      ['POST', 'http://127.0.0.1:4010/v1/pets'],
      ['GET', 'http://127.0.0.1:4010/v1/pets/999'],
    ])
    expect(har.log.entries[0]?.request.postData?.text).toBe(
      '{"name":"Rex","categoryId":1}',
    )
    expect(JSON.parse(har.log.entries[1]?.response.content.text ?? '')).toMatchObject({
      code: 'not_found',
      status: 404,
    })
    // Without an origin: the first full baseUrl's, else http://localhost.
    expect(sandbox.exportHar('alice').log.entries[0]?.request.url).toBe(
      'http://localhost/v1/pets',
    )
    const based = createSandbox({ baseUrl: 'https://api.example.com/v1' })
    expect(based.exportHar().log.entries).toEqual([])
  })
})
