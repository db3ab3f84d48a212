import { getResponse } from 'msw'
import { describe, expect, test } from 'vitest'
import {
  createSandbox,
  SandboxError,
  StoreWriteError,
  type Sandbox,
  type SandboxOptions,
  type StoreChange,
} from 'petstore-sandbox'
import { throughHandlers } from './through-handlers.js'

// The store port (SandboxOptions.store) and how created pets live through reloads,
// in-process: the handlers answer through msw's getResponse, no port, no files.

const { ask, post } = throughHandlers('sandbox-free-key')
const names = async (sandbox: Sandbox) =>
  (
    (await (await ask(sandbox, '/v1/pets?limit=100')).json()) as Array<{ name: string }>
  ).map((pet) => pet.name)

const clock = { now: '2027-01-01T00:00:00Z', frozen: true }

/** A store that records what it is given and fails or waits when told to. */
function recordingStore() {
  const changes: StoreChange[] = []
  let failure: Error | undefined
  let gate: Promise<void> | undefined
  return {
    changes,
    failWith(error: Error | undefined) {
      failure = error
    },
    /** Holds every following write until the returned function is called. */
    hold() {
      let release = () => {}
      gate = new Promise((resolve) => (release = resolve))
      return () => {
        gate = undefined
        release()
      }
    },
    store: {
      write(change: StoreChange) {
        if (failure) throw failure
        changes.push(change)
        return gate
      },
    },
  }
}

const withStore = (options: SandboxOptions = {}) => {
  const recording = recordingStore()
  const sandbox = createSandbox({ count: 3, clock, ...options, store: recording.store })
  return { sandbox, ...recording }
}

describe('created pets are kept by identity across a fixtures reload', () => {
  test('deleting a seeded pet through db.pets and then reloading keeps the created pets', async () => {
    const sandbox = createSandbox({ count: 3, clock })
    expect((await post(sandbox, 'Kept')).status).toBe(201)
    sandbox.db.pets.delete((q) => q.where({ id: 1 }))
    await sandbox.reloadFixtures({ categories: [{ id: 9, name: 'Newts' }] })
    const pets = sandbox.db.pets.all().map(({ id, name }) => ({ id, name }))
    expect(pets).toHaveLength(4)
    expect(pets.at(-1)).toEqual({ id: 4, name: 'Kept' })
  })

  test('a created pet deleted through db.pets does not come back on reload', async () => {
    const sandbox = createSandbox({ count: 3, clock })
    await post(sandbox, 'Deleted')
    await post(sandbox, 'Kept')
    sandbox.db.pets.delete((q) => q.where({ name: 'Deleted' }))
    await sandbox.reloadFixtures(undefined)
    expect((await names(sandbox)).slice(3)).toEqual(['Kept'])
  })

  test('created pets keep their ids, unless a pet of the new fixtures has taken it', async () => {
    const sandbox = createSandbox({ count: 3, clock })
    await post(sandbox, 'Four')
    await post(sandbox, 'Five')
    const moved = await sandbox.reloadFixtures({
      pets: [
        { id: 1, name: 'Fixed', categoryId: 1 },
        { id: 4, name: 'Taken', categoryId: 1 },
      ],
    })
    // Said, so a client holding id 4 can be told (the CLI's --watch log line does).
    expect(moved).toEqual([{ from: 4, to: 6 }])
    expect(sandbox.db.pets.all().map(({ id, name }) => [id, name])).toEqual([
      [1, 'Fixed'],
      [4, 'Taken'],
      [5, 'Five'],
      [6, 'Four'],
    ])
    // And it stays a created pet: the next reload keeps it again.
    expect(await sandbox.reloadFixtures(undefined)).toEqual([])
    expect((await names(sandbox)).slice(3)).toEqual(['Five', 'Four'])
  })

  test('a GET of a created pet sent during a reload waits for it, never 404', async () => {
    const sandbox = createSandbox({ count: 3, clock })
    const { id } = (await (await post(sandbox, 'Rex')).json()) as { id: number }
    const reloading = sandbox.reloadFixtures({ categories: [{ id: 9, name: 'Newts' }] })
    const [one, all] = await Promise.all([
      ask(sandbox, `/v1/pets/${id}`),
      ask(sandbox, '/v1/pets?limit=100'),
    ])
    await reloading
    expect(one.status).toBe(200)
    expect(await one.json()).toMatchObject({ id, name: 'Rex' })
    expect(await all.json()).toHaveLength(4)
  })

  test('a create sent during a reload lands after it, and is kept', async () => {
    const sandbox = createSandbox({ count: 3, clock })
    const reloading = sandbox.reloadFixtures(undefined)
    const response = await post(sandbox, 'During')
    await reloading
    expect(response.status).toBe(201)
    expect(await names(sandbox)).toHaveLength(4)
    expect((await names(sandbox)).at(-1)).toBe('During')
  })
})

describe('the store port', () => {
  test('a create waits for the store: a slow store delays the 201, and the pet is not served before', async () => {
    const { sandbox, changes, hold } = withStore()
    const release = hold()
    let answered = false
    const creating = post(sandbox, 'Slow').then((response) => {
      answered = true
      return response
    })
    await sandbox.ready
    await expect.poll(() => changes.length).toBe(1)
    expect(changes[0]).toMatchObject({
      type: 'create',
      pet: { id: 4, name: 'Slow', categoryId: 1 },
    })
    expect((await ask(sandbox, '/v1/pets/4')).status).toBe(404)
    expect(await names(sandbox)).not.toContain('Slow')
    expect(answered).toBe(false)
    release()
    const response = await creating
    expect(response.status).toBe(201)
    expect((await ask(sandbox, '/v1/pets/4')).status).toBe(200)
    // The whole state is there when the store asks for it, this pet included.
    const state = changes[0]!.state()
    expect(state).toMatchObject({
      format: 'petstore-sandbox/state@1',
      seed: 42,
      count: 3,
    })
    expect(state.pets.map((pet) => pet.id)).toEqual([1, 2, 3, 4])
  })

  test('a store that fails: 507 storage_failed with the Error body and rate-limit headers, and the pet is gone', async () => {
    const { sandbox, failWith } = withStore()
    failWith(new Error('ENOSPC: no space left on device, write'))
    const response = await post(sandbox, 'Lost')
    expect(response.status).toBe(507)
    expect(response.headers.get('content-type')).toBe('application/json')
    expect(response.headers.get('x-ratelimit-limit')).toBe('60')
    expect(response.headers.get('x-ratelimit-remaining')).toBe('59')
    expect(response.headers.get('x-ratelimit-reset')).toMatch(/^\d+$/)
    const body = (await response.json()) as {
      code: string
      message: string
      status: number
    }
    expect(body).toMatchObject({ code: 'storage_failed', status: 507 })
    expect(body.message).toMatch(/could not write its state durably \(ENOSPC/)
    expect(body.message).toMatch(/nothing was stored.*send the request again/)
    expect(body.message).not.toMatch(/\n\s+at /)
    expect(await names(sandbox)).not.toContain('Lost')
    expect((await ask(sandbox, '/v1/pets/4')).status).toBe(404)
    expect(sandbox.db.pets.count()).toBe(3)
    const journalled = sandbox.journal.recent().find((entry) => entry.method === 'POST')
    expect(journalled).toMatchObject({
      status: 507,
      code: 'storage_failed',
    })

    // Once the store works again, creates go on; the failed id is not reused.
    failWith(undefined)
    const next = await post(sandbox, 'Saved')
    expect(next.status).toBe(201)
    expect(await next.json()).toMatchObject({ id: 5, name: 'Saved' })
  })

  test('a store that rejects (async) is answered alike; concurrent creates keep unique ids', async () => {
    let calls = 0
    const sandbox = createSandbox({
      count: 3,
      clock,
      store: {
        write: async (change) => {
          calls++
          if (change.type === 'create' && change.pet.name === 'B')
            throw new Error('EIO: i/o error')
        },
      },
    })
    const responses = await Promise.all(
      ['A', 'B', 'C'].map((name) => post(sandbox, name)),
    )
    expect(responses.map((response) => response.status)).toEqual([201, 507, 201])
    expect(calls).toBe(3)
    const listed = (await (await ask(sandbox, '/v1/pets?limit=100')).json()) as Array<{
      id: number
      name: string
    }>
    expect(listed.slice(3)).toEqual([
      { id: 4, name: 'A', categoryId: 1 },
      { id: 6, name: 'C', categoryId: 1 },
    ])
  })

  test('reset writes the seeded state through the store; a failing store makes it 507 and requests go on', async () => {
    const { sandbox, changes, failWith } = withStore()
    await post(sandbox, 'Gone')
    const reset = await getResponse(
      sandbox.handlers,
      new Request('https://x.test/__sandbox/reset', { method: 'POST' }),
    )
    expect(reset?.status).toBe(200)
    const last = changes.at(-1)
    expect(last).toMatchObject({ type: 'replace', reason: 'reset' })
    expect(last!.state().pets.map((pet) => pet.name)).not.toContain('Gone')
    expect(last!.state().pets).toHaveLength(3)

    failWith(new Error('EROFS: read-only file system'))
    await expect(sandbox.reset()).rejects.toBeInstanceOf(StoreWriteError)
    await expect(sandbox.reset()).rejects.toBeInstanceOf(SandboxError)
    const failed = await getResponse(
      sandbox.handlers,
      new Request('https://x.test/__sandbox/reset', { method: 'POST' }),
    )
    expect(failed?.status).toBe(507)
    expect(await failed?.json()).toMatchObject({ code: 'storage_failed', status: 507 })
    // The data is in place: the failure does not stop the API.
    await expect(sandbox.ready).resolves.toBeUndefined()
    expect((await ask(sandbox, '/v1/pets/1')).status).toBe(200)
  })

  test('importState and reloadFixtures write the whole state too', async () => {
    const { sandbox, changes } = withStore()
    await post(sandbox, 'Four')
    const saved = sandbox.exportState()
    await sandbox.importState(JSON.parse(JSON.stringify(saved)))
    expect(changes.at(-1)).toMatchObject({ type: 'replace', reason: 'restore' })
    await sandbox.reloadFixtures({ categories: [{ id: 9, name: 'Newts' }] })
    const last = changes.at(-1)
    expect(last).toMatchObject({ type: 'replace', reason: 'reload' })
    expect(last!.state().pets.at(-1)).toMatchObject({ id: 4, name: 'Four' })
  })

  test('seeding writes nothing; scenario datasets never reach the store', async () => {
    const { sandbox, changes } = withStore()
    await sandbox.ready
    expect(changes).toEqual([])
    const response = await ask(sandbox, '/v1/pets', {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        'x-sandbox-scenario': 'empty-store',
      },
      body: JSON.stringify({ name: 'Elsewhere', categoryId: 1 }),
    })
    expect(response.status).toBe(201)
    expect(changes).toEqual([])
  })
})
