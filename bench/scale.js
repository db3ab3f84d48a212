// Scale, in a fresh process per size: seeding time (createSandbox until `ready`), then
// the latency of a list, a filtered first page and a get-by-id of a late id, each through
// msw's getResponse over the sandbox's handlers (body read included), and the process's
// peak RSS, and the first write in a new session (firstWriteMs). node bench/scale.js
// <count> <samples>
// Prints one JSON line.
import { readFileSync } from 'node:fs'
import { performance } from 'node:perf_hooks'
import { getResponse } from 'msw'
import { createSandbox } from '../dist/index.js'

const count = Number(process.argv[2])
const samples = Number(process.argv[3] ?? 500)
const HEADERS = { authorization: 'Bearer sandbox-enterprise-key' }
const ORIGIN = 'http://api.example.test'

const started = performance.now()
const sandbox = createSandbox({ seed: 42, count })
await sandbox.ready
const seedMs = performance.now() - started

const lateId = Math.max(1, count - 1)
const cases = {
  list: { path: '/v1/pets?limit=20', length: Math.min(20, count) },
  filtered: { path: '/v1/pets?status=sold', length: undefined },
  getById: { path: `/v1/pets/${lateId}`, id: lateId },
}

async function once(path) {
  const response = await getResponse(
    sandbox.handlers,
    new globalThis.Request(`${ORIGIN}${path}`, { headers: HEADERS }),
  )
  return { status: response?.status, body: await response?.json() }
}

const latencyMs = {}
for (const [name, spec] of Object.entries(cases)) {
  const first = await once(spec.path)
  if (first.status !== 200) throw new Error(`${name}: status ${first.status}`)
  if (spec.length !== undefined && first.body.length !== spec.length)
    throw new Error(`${name}: ${first.body.length} pets, expected ${spec.length}`)
  if (spec.id !== undefined && first.body.id !== spec.id)
    throw new Error(`${name}: got pet ${first.body.id}, expected ${spec.id}`)
  if (name === 'filtered' && !first.body.every((pet) => pet.status === 'sold'))
    throw new Error('filtered: a pet that is not sold')
  for (let index = 0; index < samples / 5; index++) await once(spec.path)
  const times = []
  for (let index = 0; index < samples; index++) {
    const t0 = performance.now()
    await once(spec.path)
    times.push(performance.now() - t0)
  }
  times.sort((left, right) => left - right)
  latencyMs[name] = {
    p50: times[Math.floor(times.length / 2)],
    p99: times[Math.floor(times.length * 0.99)],
  }
}

// The first write in a new session of this world: a POST (its record made apart, the
// seed shared), and a session taken in code, whose db.pets is a copy of the seed made
// through @msw/data's create, until its `ready` and the first update through it.
const firstWriteMs = {}
{
  const t0 = performance.now()
  const created = await getResponse(
    sandbox.handlers,
    new globalThis.Request(`${ORIGIN}/v1/pets`, {
      method: 'POST',
      headers: {
        ...HEADERS,
        'content-type': 'application/json',
        'x-sandbox-session': 'writer',
      },
      body: JSON.stringify({ name: 'Rex', categoryId: 1 }),
    }),
  )
  if (created?.status !== 201) throw new Error(`first write: status ${created?.status}`)
  await created.json()
  firstWriteMs.post = performance.now() - t0
  const t1 = performance.now()
  const session = sandbox.session('coder')
  await session.ready
  firstWriteMs.sessionCollection = performance.now() - t1
  const t2 = performance.now()
  await session.db.pets.update((q) => q.where({ id: 1 }), {
    data(pet) {
      pet.name = 'Renamed'
    },
  })
  firstWriteMs.update = performance.now() - t2
}

const status = readFileSync('/proc/self/status', 'utf8')
const peakRssMb = Number(/^VmHWM:\s+(\d+)/m.exec(status)?.[1]) / 1024
const pets = sandbox.db.pets.count()
process.stdout.write(
  `${JSON.stringify({ count, pets, seedMs, latencyMs, firstWriteMs, peakRssMb, samples })}\n`,
)
