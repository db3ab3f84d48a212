// The soak's two memory phases after its mixed traffic (bench/soak.js runs them; the
// test test/hostile/memory-given-back.test.ts asserts them on the current source):
//
//   give-back  many sessions with pets, journals, bodies, defined scenarios and moved
//              clocks, and imported sessions of thousands of pets; then half of them
//              ended by DELETE, the other half left to expire (sessionTtlSeconds),
//              and the default session reset. The heap after a
//              full collection must be back near startup: at most 1.2x + 5 MiB.
//   flood      24,000 requests with 14 KB queries over 600 sessions, the journal budget
//              at its default 32 MiB: the resident set may grow by less than 150 MiB.
//
// Each phase has a server of its own (bench/soak-server.js, --expose-gc), sampled after
// two full collections and a second's wait, so that V8 has unmapped the pages it emptied.
import { setTimeout as sleep } from 'node:timers/promises'
import autocannon from 'autocannon'
import { startSoakServer } from './lib/soak-child.js'

const MiB = 1024 * 1024
const ENTERPRISE = 'Bearer sandbox-enterprise-key'

export const GIVE_BACK_BOUNDS = {
  /** heapUsed once every session has ended: at most startup x 1.2 + 5 MiB. */
  heapRatio: 1.2,
  heapSlackBytes: 5 * MiB,
  /** RSS growth of the journal flood. */
  floodRssBytes: 150 * MiB,
}

const mb = (bytes) => Math.round((bytes / MiB) * 100) / 100
const figures = (sample) => ({
  heapMiB: mb(sample.heapUsed),
  heapTotalMiB: mb(sample.heapTotal),
  rssMiB: mb(sample.rss),
  sessions: sample.sessions,
})

/** Runs `count` tasks, `width` at a time. */
async function pool(count, width, task) {
  let next = 0
  await Promise.all(
    Array.from({ length: width }, async () => {
      while (next < count) await task(next++)
    }),
  )
}

/** A request whose answer is read whole; a 5xx or an unexpected status is thrown. */
async function send(origin, path, { expect = [200], ...init } = {}) {
  const response = await fetch(`${origin}${path}`, init)
  const text = await response.text()
  if (!expect.includes(response.status))
    throw new Error(
      `${init.method ?? 'GET'} ${path} answered ${response.status}: ${text.slice(0, 300)}`,
    )
  return text
}

/**
 * The give-back phase: resolves with the heap and RSS at startup, after the load,
 * after the sessions ended (as held, before a forced collection) and after a full
 * collection, and the verdict.
 */
export async function runGiveBack({
  entry,
  sessions = 400,
  imports = 8,
  importPets = 5000,
  ttlSeconds = 10,
  log = () => {},
} = {}) {
  const server = await startSoakServer(entry, {
    options: { sessionTtlSeconds: ttlSeconds },
  })
  try {
    const origin = `http://127.0.0.1:${server.port}`
    const startup = await server.sample({ settleMs: 1000 })
    const json = { 'content-type': 'application/json' }
    const as = (id) => ({ ...json, authorization: `${ENTERPRISE}.${id}` })

    // Every session changes what a world can hold: pets, a journal with bodies and
    // errors, a scenario of its own, a moved clock, rate-limit windows.
    await pool(sessions, 16, async (n) => {
      const id = `give-back-${n}`
      for (let pet = 0; pet < 5; pet++)
        await send(origin, '/v1/pets', {
          method: 'POST',
          headers: as(id),
          body: JSON.stringify({
            name: `Pet ${n}-${pet} ${'x'.repeat(40)}`,
            categoryId: 1 + (pet % 9),
          }),
          expect: [201],
        })
      await send(origin, '/v1/pets', {
        method: 'POST',
        headers: as(id),
        body: `{"name":"${'y'.repeat(2000)}",`,
        expect: [400],
      })
      for (let read = 0; read < 8; read++)
        await send(
          origin,
          `/v1/pets?limit=${1 + read}&n=${n}-${read}-${'q'.repeat(200)}`,
          {
            headers: as(id),
          },
        )
      await send(origin, `/__sandbox/scenarios/own-${n}`, {
        method: 'PUT',
        headers: as(id),
        body: JSON.stringify({ description: `Session ${n}'s own`, latency: 0 }),
        expect: [200, 201],
      })
      await send(origin, '/__sandbox/clock', {
        method: 'POST',
        headers: as(id),
        body: JSON.stringify({ advanceSeconds: 60 * (n % 7) }),
      })
    })

    // Imported sessions: a session's export with thousands of pets, each import its own.
    const exported = JSON.parse(
      await send(origin, '/__sandbox/export', { headers: as('give-back-0') }),
    )
    const template = exported.pets[0]
    const from = {
      ...exported,
      pets: [
        ...exported.pets,
        ...Array.from({ length: importPets }, (_, index) => ({
          ...template,
          id: 100_000 + index,
          name: `Imported ${index} ${'z'.repeat(30)}`,
        })),
      ],
    }
    const body = JSON.stringify({ from })
    await pool(imports, 2, (n) =>
      send(origin, '/__sandbox/sessions', {
        method: 'POST',
        headers: json,
        body: `{"id":"imported-${n}",${body.slice(1)}`,
        expect: [201],
      }),
    )

    // Every session is used once more now, so that none expired during the load (it
    // takes longer than ttlSeconds) and the half left to expire does ttlSeconds from here.
    const names = [
      ...Array.from({ length: sessions }, (_, n) => `give-back-${n}`),
      ...Array.from({ length: imports }, (_, n) => `imported-${n}`),
    ]
    await pool(names.length, 16, (n) =>
      send(origin, '/v1/pets?limit=1', { headers: as(names[n]) }),
    )
    const touched = performance.now()
    const loaded = await server.sample({ settleMs: 1000 })
    log(`give-back: ${loaded.sessions} sessions live, heap ${mb(loaded.heapUsed)} MiB`)

    // Every other one ends by DELETE, sessions and imports alike; the rest expire.
    await pool(names.length / 2, 16, (half) =>
      send(origin, `/__sandbox/sessions/${names[2 * half]}`, {
        method: 'DELETE',
        expect: [204],
      }),
    )
    await sleep(Math.max(0, (ttlSeconds + 1) * 1000 - (performance.now() - touched)))
    // No request names the expired ones: the default session's reset ends them.
    await send(origin, '/__sandbox/reset', { method: 'POST' })
    const ended = await server.sample({ gc: false, settleMs: 1000 })
    const collected = await server.sample({ settleMs: 1000 })

    const bound =
      startup.heapUsed * GIVE_BACK_BOUNDS.heapRatio + GIVE_BACK_BOUNDS.heapSlackBytes
    const problems = []
    if (collected.heapUsed > bound)
      problems.push(
        `heap after the sessions ended ${mb(collected.heapUsed)} MiB, over ${mb(bound)} MiB (startup ${mb(startup.heapUsed)} MiB x 1.2 + 5)`,
      )
    if (collected.sessions !== 0)
      problems.push(`${collected.sessions} sessions still live after they all ended`)
    return {
      ok: problems.length === 0,
      problems,
      sessions,
      imports,
      importPets,
      startup: figures(startup),
      loaded: figures(loaded),
      ended: figures(ended),
      collected: figures(collected),
      heapBoundMiB: mb(bound),
    }
  } finally {
    await server.stop()
  }
}

/**
 * The journal flood: `requests` GETs with queries of `queryBytes` over `sessions`
 * sessions against a server with the default journal budget; resolves with the heap and
 * RSS before and after (each after a full collection) and the verdict.
 */
export async function runJournalFlood({
  entry,
  sessions = 600,
  requests = 24_000,
  queryBytes = 14_000,
  log = () => {},
} = {}) {
  const server = await startSoakServer(entry)
  try {
    const origin = `http://127.0.0.1:${server.port}`
    await pool(300, 8, (n) =>
      send(origin, `/v1/pets?limit=5&n=${n}`, { headers: { authorization: ENTERPRISE } }),
    )
    const before = await server.sample({ settleMs: 1000 })
    let n = 0
    const started = performance.now()
    const result = await autocannon({
      url: origin,
      connections: 16,
      amount: requests,
      timeout: 10,
      requests: [
        {
          setupRequest: (request) => {
            const index = n++
            return {
              ...request,
              path: `/v1/pets?limit=10&q=${String(index).padEnd(queryBytes, 'q')}`,
              headers: { authorization: `${ENTERPRISE}.flood-${index % sessions}` },
            }
          },
        },
      ],
    })
    const seconds = (performance.now() - started) / 1000
    const after = await server.sample({ settleMs: 1000 })
    const statuses = Object.fromEntries(
      Object.entries(result.statusCodeStats ?? {}).map(([code, { count }]) => [
        code,
        count,
      ]),
    )
    const answered = Object.values(statuses).reduce((sum, count) => sum + count, 0)
    log(`flood: ${answered} requests in ${seconds.toFixed(1)} s`)
    const growth = after.rss - before.rss
    const problems = []
    if (growth >= GIVE_BACK_BOUNDS.floodRssBytes)
      problems.push(
        `the journal flood grew RSS by ${mb(growth)} MiB (bound ${mb(GIVE_BACK_BOUNDS.floodRssBytes)})`,
      )
    if (
      answered < requests ||
      statuses['200'] !== answered ||
      result.errors ||
      result.timeouts
    )
      problems.push(
        `the flood's answers: ${JSON.stringify(statuses)}, ${result.errors} errors, ${result.timeouts} timeouts`,
      )
    return {
      ok: problems.length === 0,
      problems,
      sessions,
      requests: answered,
      queryBytes,
      seconds: Math.round(seconds * 10) / 10,
      before: figures(before),
      after: figures(after),
      rssGrowthMiB: mb(growth),
      heapGrowthMiB: mb(after.heapUsed - before.heapUsed),
    }
  } finally {
    await server.stop()
  }
}
