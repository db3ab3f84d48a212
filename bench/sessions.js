// The sessions rows of issue 15, as ratios within one run of one server: with
// --max-sessions 10000 and 10,000 live sessions that each created one pet, the peak RSS;
// GET /v1/pets on a session against the default session (interleaved autocannon
// rounds); and the first request of a new session against a request of a live one
// (p99 of a few thousand of each, alternating on one keep-alive connection).
import { Agent, request } from 'node:http'
import { performance } from 'node:perf_hooks'
import {
  freePort,
  peakRssMb,
  sandboxArgs,
  startNode,
  waitFor200,
} from './lib/children.js'
import { runLoad } from './lib/load.js'
import { evaluateTargets, fmt, median } from './lib/report.js'

const AUTH = { authorization: 'Bearer sandbox-enterprise-key' }
const LIST_PATH = '/v1/pets?limit=20'
const NEW_PET = JSON.stringify({ name: 'Rex', categoryId: 1, status: 'available' })

export const SESSIONS_CONFIG = {
  sessions: 10_000,
  createConcurrency: 32,
  firstRequests: 3_000,
  warmup: 300,
}

/** The targets of issue 15's "Performance". */
export const SESSION_TARGETS = [
  {
    id: 'sessions-rss',
    label: '10,000 live sessions with one created pet each: peak RSS',
    value: (r) => r.sessions?.rss.peakMb,
    op: '<',
    limit: 400,
    unit: 'MB',
  },
  {
    id: 'sessions-get-rps',
    label: 'GET /v1/pets req/s, on a session/on the default session',
    value: (r) => r.sessions?.get.ratio,
    op: '>=',
    limit: 0.9,
    unit: 'x',
  },
  {
    id: 'sessions-first-p99',
    label: 'first request of a new session/a request of a live one (p99)',
    value: (r) => r.sessions?.first.ratio,
    op: '<=',
    limit: 5,
    unit: 'x',
  },
]

/** The sessions targets, INVALID when a request of the section failed. */
export function evaluateSessionTargets(results) {
  return evaluateTargets(results, SESSION_TARGETS).map((target) =>
    results.sessions?.failures > 0 ? { ...target, result: 'INVALID' } : target,
  )
}

/** One request on `agent`; resolves with status, body and milliseconds taken. */
function send(agent, port, method, path, headers, body) {
  return new Promise((resolve, reject) => {
    const startedAt = performance.now()
    const req = request(
      { host: '127.0.0.1', port, method, path, headers, agent },
      (res) => {
        let text = ''
        res.setEncoding('utf8')
        res.on('data', (chunk) => (text += chunk))
        res.on('end', () =>
          resolve({
            status: res.statusCode,
            body: text,
            ms: performance.now() - startedAt,
          }),
        )
        res.on('error', reject)
      },
    )
    req.on('error', reject)
    req.setTimeout(10_000, () => req.destroy(new Error(`${method} ${path} timed out`)))
    req.end(body)
  })
}

function percentile(values, p) {
  const sorted = [...values].sort((a, b) => a - b)
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]
}

const load = (port, headers, durationS, connections) =>
  runLoad(
    {
      url: `http://127.0.0.1:${port}${LIST_PATH}`,
      headers: { ...AUTH, ...headers },
      connections,
    },
    durationS,
    200,
  )

/** Runs the sessions section; `config` is the bench's (rounds, durationS, connections). */
export async function measureSessions(root, config, log) {
  const { sessions, createConcurrency, firstRequests, warmup } = SESSIONS_CONFIG
  const port = await freePort()
  const startedAt = performance.now()
  const proc = startNode(sandboxArgs(root, port, ['--max-sessions', String(sessions)]), {
    cwd: root,
  })
  const agent = new Agent({ keepAlive: true, maxSockets: createConcurrency })
  try {
    await waitFor200(proc, port, LIST_PATH, AUTH, startedAt)
    const rssBeforeMb = peakRssMb(proc.child.pid)
    let failures = 0

    log(`sessions: ${sessions.toLocaleString('en-US')} sessions, one POST each`)
    const createStarted = performance.now()
    let next = 0
    await Promise.all(
      Array.from({ length: createConcurrency }, async () => {
        while (next < sessions) {
          const id = `s-${next++}`
          const answer = await send(
            agent,
            port,
            'POST',
            '/v1/pets',
            { ...AUTH, 'x-sandbox-session': id, 'content-type': 'application/json' },
            NEW_PET,
          )
          if (answer.status !== 201) failures++
        }
      }),
    )
    const createS = (performance.now() - createStarted) / 1000
    const listed = JSON.parse(
      (await send(agent, port, 'GET', '/__sandbox/sessions', {})).body,
    ).sessions
    const rssAfterCreateMb = peakRssMb(proc.child.pid)
    log(
      `  ${listed.length.toLocaleString('en-US')} live, ${fmt(createS)} s, peak RSS ${fmt(rssAfterCreateMb, 0)} MB (${fmt(rssBeforeMb, 0)} MB before)`,
    )
    if (listed.length !== sessions) failures++

    // A live session that has its own pet, against the default session: the same
    // first 20 pets (the session's pet is the 51st), so the same bytes.
    const session = { 'x-sandbox-session': `s-${sessions - 1}` }
    const same = await Promise.all([
      send(agent, port, 'GET', LIST_PATH, AUTH),
      send(agent, port, 'GET', LIST_PATH, { ...AUTH, ...session }),
    ])
    if (same[0].status !== 200 || same[0].body !== same[1].body) {
      throw new Error(
        `GET ${LIST_PATH} differs between the default session and a session (${same[0].status}, ${same[1].status}); the comparison would be meaningless`,
      )
    }
    log(`  GET on a session vs the default session: ${config.rounds} interleaved rounds`)
    await load(port, {}, 1, config.connections)
    await load(port, session, 1, config.connections)
    const runs = { base: [], session: [] }
    for (let round = 1; round <= config.rounds; round++) {
      for (const side of round % 2 ? ['base', 'session'] : ['session', 'base']) {
        const run = await load(
          port,
          side === 'session' ? session : {},
          config.durationS,
          config.connections,
        )
        runs[side].push(run)
        failures += run.failures
        log(
          `  round ${round} ${side === 'base' ? 'default' : 'session'} ${run.rps.toFixed(0).padStart(6)} req/s  p99 ${run.p99} ms`,
        )
      }
    }

    const rssAfterGetMb = peakRssMb(proc.child.pid)
    // New sessions evict the least recently used (s-0, s-1, ...); the live ones read
    // come from the other end, so none is evicted before it is read.
    log(`  first request of ${firstRequests.toLocaleString('en-US')} new sessions`)
    const single = new Agent({ keepAlive: true, maxSockets: 1 })
    const times = { first: [], live: [] }
    let live = sessions - 2
    for (let index = 0; index < warmup + firstRequests; index++) {
      const pair = [
        ['first', { ...AUTH, 'x-sandbox-session': `n-${index}` }],
        ['live', { ...AUTH, 'x-sandbox-session': `s-${live--}` }],
      ]
      if (index % 2) pair.reverse()
      for (const [kind, headers] of pair) {
        const answer = await send(single, port, 'GET', LIST_PATH, headers)
        if (answer.status !== 200) failures++
        if (index >= warmup) times[kind].push(answer.ms)
      }
    }
    single.destroy()
    const peakMb = peakRssMb(proc.child.pid)
    if (!proc.alive) throw new Error(`the server died: ${proc.stderr}`)

    const side = (list) => ({
      rps: median(list.map((run) => run.rps)),
      p99: median(list.map((run) => run.p99)),
      runs: list,
    })
    const first = {
      p50: percentile(times.first, 50),
      p99: percentile(times.first, 99),
    }
    const existing = { p50: percentile(times.live, 50), p99: percentile(times.live, 99) }
    return {
      sessions,
      createS,
      rss: {
        beforeMb: rssBeforeMb,
        afterCreateMb: rssAfterCreateMb,
        afterGetMb: rssAfterGetMb,
        peakMb,
      },
      get: {
        base: side(runs.base),
        session: side(runs.session),
        ratio: median(runs.session.map((run, index) => run.rps / runs.base[index].rps)),
      },
      first: {
        requests: firstRequests,
        first,
        live: existing,
        ratio: first.p99 / existing.p99,
        p50Ratio: first.p50 / existing.p50,
      },
      failures,
    }
  } finally {
    agent.destroy()
    await proc.kill()
  }
}

/** The figures a run is compared on (bench/results/latest.json). */
export function sessionFigures(results) {
  const s = results.sessions
  return {
    'sessions: peak RSS MB with 10,000': s.rss.peakMb,
    'sessions: GET req/s ratio, session/default': s.get.ratio,
    'sessions: first request p99 ratio, new/live': s.first.ratio,
  }
}

/** The sessions section (issue 15): its rows and their targets. */
export function renderSessions(results, targets) {
  const s = results.sessions
  const byId = Object.fromEntries(targets.map((target) => [target.id, target]))
  const verdict = (id) => (byId[id] ? ` ${byId[id].result}` : '')
  const rows = [
    [
      `peak RSS (VmHWM) with ${s.sessions.toLocaleString('en-US')} live sessions, one created pet each`,
      `${fmt(s.rss.beforeMb, 0)} MB before the sessions`,
      `${fmt(s.rss.afterCreateMb, 0)} MB after, ${fmt(s.rss.afterGetMb, 0)} MB after the GET rounds, ${fmt(s.rss.peakMb, 0)} MB at the end`,
      `**${fmt(s.rss.peakMb, 0)} MB**`,
      `< 400 MB${verdict('sessions-rss')}`,
    ],
    [
      `GET ${LIST_PATH} req/s (-c ${results.config.connections}), default session / a session`,
      fmt(s.get.base.rps),
      fmt(s.get.session.rps),
      `**${fmt(s.get.ratio)}**`,
      `>= 0.9${verdict('sessions-get-rps')}`,
    ],
    [
      `GET ${LIST_PATH} p99 (one connection), a live session / a new session's first`,
      `${fmt(s.first.live.p99, 2)} ms (p50 ${fmt(s.first.live.p50, 2)})`,
      `${fmt(s.first.first.p99, 2)} ms (p50 ${fmt(s.first.first.p50, 2)})`,
      `**${fmt(s.first.ratio)}**`,
      `<= 5${verdict('sessions-first-p99')}`,
    ],
  ]
  const lines = [
    `## Sessions (issue 15; one server with --max-sessions ${s.sessions}, ${s.sessions.toLocaleString('en-US')} sessions made with one POST each in ${fmt(s.createS)} s; GET ${results.config.durationS} s x ${results.config.rounds} interleaved rounds, ratio the median of the per-round ratios; ${s.first.requests.toLocaleString('en-US')} new and live sessions alternating, after the server is full, so each new one evicts the least recently used)`,
    '',
    '| measure | baseline | sessions | ratio | target |',
    '| --- | --- | --- | --- | --- |',
    ...rows.map((row) => `| ${row.join(' | ')} |`),
    '',
    `Non-2xx answers or errors in these runs: ${s.failures}.`,
  ]
  return `${lines.join('\n')}\n`
}
