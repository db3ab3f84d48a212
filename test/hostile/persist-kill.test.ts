import { mkdtempSync, readdirSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { setTimeout as sleep } from 'node:timers/promises'
import { afterAll, afterEach, beforeEach, expect, test } from 'vitest'
import { killAll, removeCliBuild, startServer } from '../cli/cli-process.js'
import { readStateFile } from '../cli/read-state.js'

// test/cli/persist.test.ts kills the server once, after its writes. Here it is killed
// (SIGKILL) in the middle of many concurrent creates, round after round, restarting
// on the same file each time.

const ROUNDS = 6
const LANES = 8
const ENTERPRISE = { authorization: 'Bearer sandbox-enterprise-key' }
// Random but reproducible kill moments; change the seed to explore others.
const SEED = Number(process.env.KILL_SEED ?? 7)

let folder: string
let file: string
beforeEach(() => {
  folder = mkdtempSync(join(tmpdir(), 'petstore-kill-'))
  file = join(folder, 'state.json')
})
afterEach(async () => {
  await killAll()
  rmSync(folder, { recursive: true, force: true })
})
afterAll(removeCliBuild)

function mulberry32(seed: number) {
  let state = seed >>> 0
  return () => {
    state = (state + 0x6d2b79f5) >>> 0
    let t = Math.imul(state ^ (state >>> 15), 1 | state)
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
}

interface StoredPet {
  id: number
  name: string
}

test(`SIGKILL during concurrent creates, ${ROUNDS} rounds: every 201 survives, the file always parses, ids never repeat`, async () => {
  const random = mulberry32(SEED)
  const acknowledged = new Map<number, string>()
  const sent = new Set<string>()
  let killedInFlight = 0
  for (let round = 0; round < ROUNDS; round++) {
    const { cli, api } = await startServer(['--persist', file, '--quiet'])

    // What was acknowledged before the last kill is served after the restart.
    const known = [...acknowledged.keys()]
    const sample = known.filter(
      (_, index) => index % 7 === 0 || index === known.length - 1,
    )
    for (const id of sample) {
      const response = await fetch(`${api}/pets/${id}`, { headers: ENTERPRISE })
      expect(response.status, `pet ${id} after restart ${round}`).toBe(200)
      expect(((await response.json()) as StoredPet).name).toBe(acknowledged.get(id))
    }

    let stop = false
    let inFlight = 0
    const lane = async (laneIndex: number) => {
      for (let index = 0; !stop; index++) {
        const name = `r${round}-l${laneIndex}-${index}`
        sent.add(name)
        inFlight++
        try {
          const response = await fetch(`${api}/pets`, {
            method: 'POST',
            headers: { ...ENTERPRISE, 'content-type': 'application/json' },
            body: JSON.stringify({ name, categoryId: 1 }),
          })
          const pet = (await response.json()) as StoredPet
          expect(response.status).toBe(201)
          // A new pet never takes an id already given out, before or after a restart.
          expect(acknowledged.has(pet.id), `id ${pet.id} given twice`).toBe(false)
          acknowledged.set(pet.id, pet.name)
        } catch (error) {
          if ((error as Error).name === 'AssertionError') throw error
          return // the server is gone
        } finally {
          inFlight--
        }
      }
    }
    const lanes = Array.from({ length: LANES }, (_, index) => lane(index))
    await sleep(60 + Math.floor(random() * 240))
    killedInFlight += inFlight
    cli.child.kill('SIGKILL')
    await cli.exited
    stop = true
    await Promise.all(lanes)

    // The file always loads as the next start reads it (a torn last line, a write the
    // kill interrupted before any answer, is dropped there).
    let state: ReturnType<typeof readStateFile>
    try {
      state = readStateFile(file)
    } catch (error) {
      throw new Error(`Round ${round}: the state file does not load: ${String(error)}`)
    }
    expect(state.header.format).toBe('petstore-sandbox/state@2')
    const stored = new Map(state.pets.map((pet) => [pet.id, pet.name]))
    expect(stored.size, 'ids in the file are unique').toBe(state.pets.length)
    for (const [id, name] of acknowledged)
      expect(
        stored.get(id),
        `round ${round}: pet ${id} (${name}) acknowledged, then lost`,
      ).toBe(name)
    // Nothing invented: beyond the 50 seeded pets, only names that were sent.
    for (const pet of state.pets.filter((pet) => pet.id > 50))
      expect(sent.has(pet.name), `unknown pet ${pet.name}`).toBe(true)
    // Creates only append: no temporary file is ever left by them. The killed server's
    // lock stays, and the next round's server takes it over.
    expect(readdirSync(folder).sort()).toEqual(['state.json', 'state.json.lock'])
  }
  // The kills really came in the middle of the traffic.
  expect(acknowledged.size).toBeGreaterThan(ROUNDS * 5)
  expect(killedInFlight).toBeGreaterThan(0)
}, 60_000) // bounded by its rounds; a busy machine needs more than the default 20 s
