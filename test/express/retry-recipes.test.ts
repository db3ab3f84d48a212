import { channel } from 'node:diagnostics_channel'
import type { ClientRequest } from 'node:http'
import {
  afterAll,
  afterEach,
  beforeAll,
  beforeEach,
  describe,
  expect,
  test,
  vi,
} from 'vitest'
import { problems } from 'petstore-sandbox/express'
import { createOnce, RECIPES, type PetsClient, type Recipe } from './retry-recipes.js'
import { startApp } from './start-app.js'

// The retry recipes of docs/report-card.md#retry-recipes, graded by the report card: each
// library's recommended configuration gets no finding above info in the scenarios
// rate-limit-countdown, rate-limited and flaky-network, and its naive one gets the
// findings the docs promise. The clients talk HTTP to the standalone app on a loopback
// port (undici's dispatcher goes round msw, and only real sockets give axios and got the
// ECONNRESET of a dropped connection they retry in production), while their waits run on
// vitest's fake timers: the sandbox clock follows Date.now(), so a minute of Retry-After
// passes in no time.

// Which client requests are on the wire: time moves only while none is, so a library's
// wait is the only thing that makes it move (an advance while a request is on its way
// would lengthen a wait the card grades). node:http (got, axios) and undici (fetch, ky,
// fetch-retry, p-retry, RetryAgent) say so on their diagnostics channels.
const onTheWire = new Set<object>()
const subscriptions: [string, (message: unknown) => void][] = [
  [
    'http.client.request.start',
    (message) => {
      const { request } = message as { request: ClientRequest }
      onTheWire.add(request)
      request.once('close', () => onTheWire.delete(request))
    },
  ],
  ['undici:request:create', (message) => onTheWire.add(requestOf(message))],
  ['undici:request:trailers', (message) => onTheWire.delete(requestOf(message))],
  ['undici:request:error', (message) => onTheWire.delete(requestOf(message))],
]
const requestOf = (message: unknown) => (message as { request: object }).request

/**
 * Runs `work` to its end on fake time: lets real I/O run (setImmediate is not faked), and
 * whenever no request is on the wire, moves the clock to the next timer (a library's
 * retry delay, or one of undici's own ticks).
 */
async function settle<T>(work: Promise<T>): Promise<T> {
  let done = false
  void work.then(
    () => (done = true),
    () => (done = true),
  )
  while (!done) {
    for (let turn = 0; turn < 10 && !done; turn++) {
      await new Promise((resolve) => setImmediate(resolve))
    }
    if (done || onTheWire.size > 0 || vi.getTimerCount() === 0) continue
    await vi.advanceTimersToNextTimerAsync()
  }
  return work
}

let app: Awaited<ReturnType<typeof startApp>>
beforeAll(async () => {
  for (const [name, listener] of subscriptions) channel(name).subscribe(listener)
  app = await startApp({ seed: 42 })
})
afterAll(async () => {
  for (const [name, listener] of subscriptions) channel(name).unsubscribe(listener)
  await app.close()
})
// Ten seconds into a minute: the 429 of a minute window asks for 50 s, more than
// undici's 30 s maxTimeout.
beforeEach(() => {
  vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'] })
  vi.setSystemTime(new Date('2027-01-01T00:00:10Z'))
})
afterEach(() => vi.useRealTimers())

const PET = { name: 'Biscuit', categoryId: 1 }
// Session ids decide which requests flaky-network drops (docs/faults.md): in this one
// (seed 42) requests 1, 2, 3 and 5 drop, 4 and 6 to 10 go through. So a list is dropped
// three times in a row, then the create that follows it is dropped once.
const FLAKY_SESSION = 'flaky-1501'

/** What a run does, in which session and scenario. */
interface Run {
  session: string
  scenario: string
  work(client: PetsClient, careful: boolean): Promise<void>
}

const RUNS = {
  // Five lists a minute: the sixth gets 429 and a Retry-After of 50 s, the seventh
  // and eighth come after it.
  'rate-limit-countdown': {
    session: 'countdown',
    scenario: 'rate-limit-countdown',
    work: async (client: PetsClient) => {
      for (let index = 0; index < 8; index++) await client.list().catch(() => 0)
    },
  },
  // Every minute window starts used up: the list is refused until the client gives up.
  'rate-limited': {
    session: 'limited',
    scenario: 'rate-limited',
    work: async (client: PetsClient) => {
      await client.list().catch(() => 0)
    },
  },
  // A list dropped three times, then a create dropped once.
  'flaky-network': {
    session: FLAKY_SESSION,
    scenario: 'flaky-network',
    work: async (client: PetsClient, careful: boolean) => {
      await client.list().catch(() => 0)
      await (careful ? createOnce(client, PET) : client.create(PET)).catch(() => 0)
    },
  },
} satisfies Record<string, Run>
type RunName = keyof typeof RUNS

// A run of retries is one scenario window's: a list that X-Sandbox-Scenario sends into
// rate-limited, retried after each Retry-After until the library gives up, then at once
// a plain list in the session's own window (ky's case in issue 35).
const WINDOWS: Run = {
  session: 'windows',
  scenario: 'default',
  work: async (client) => {
    await client.list({ 'x-sandbox-scenario': 'rate-limited' }).catch(() => 0)
    expect(await client.list()).toBe(200)
  },
}

/** Runs a recipe through a run in a fresh session; answers the session's report. */
async function grade(recipe: Recipe, run: Run, careful: boolean) {
  const { session, scenario, work } = run
  const world = app.sandbox.session(session)
  await world.reset()
  world.useScenario(scenario)
  const client = recipe({ origin: app.origin, key: `sandbox-free-key.${session}` })
  try {
    await settle(work(client, careful))
  } finally {
    await client.close()
  }
  // What a failed expectation shows: the requests (oldest first) and their answers.
  const requests = world.journal
    .recent()
    .reverse()
    .map(
      (entry) =>
        `${entry.at.slice(11, 23)} ${entry.method} ${entry.path} ${entry.dropped ? 'dropped' : entry.status}${entry.ignoredRetryAfter ? ' (before Retry-After)' : ''}`,
    )
  return { report: world.report(), requests: requests.join('\n') }
}

type Library = keyof typeof RECIPES

/**
 * The findings above info the naive recipes get, as docs/report-card.md#retry-recipes
 * says (the report card's rules: docs/report-card.md#backing-off-no_exponential_backoff).
 */
const NAIVE: Record<Library, Record<RunName, string[]>> = {
  // retry.maxRetryAfter 10 s: every 10 s while a 429 asks for 50 s, which bans the key
  // (rate-limit-countdown bans after 3); POST in retry.methods: the dropped create is
  // sent again 300 ms later.
  ky: {
    'rate-limit-countdown': [
      'retry_before_retry_after',
      'api_key_banned',
      'no_exponential_backoff',
    ],
    // Waits of 10 s are patient: not hammering, so not no_exponential_backoff.
    'rate-limited': ['retry_before_retry_after'],
    'flaky-network': ['blind_retry'],
  },
  // calculateDelay answers 1 s: after 429s and after drops alike, every second.
  got: {
    'rate-limit-countdown': [
      'retry_before_retry_after',
      'api_key_banned',
      'no_exponential_backoff',
    ],
    'rate-limited': ['retry_before_retry_after', 'no_exponential_backoff'],
    'flaky-network': ['no_exponential_backoff'],
  },
  // The defaults honour Retry-After, but retry a drop at once, POST included.
  'axios-retry': {
    'rate-limit-countdown': [],
    'rate-limited': [],
    'flaky-network': ['blind_retry', 'no_exponential_backoff'],
  },
  // 1 s, 2 s, 4 s, ... whatever the Retry-After (and once it gives up, the next list
  // goes at once: a wait of 0 after one of 16 s); the create is retried like the rest.
  'p-retry': {
    'rate-limit-countdown': [
      'retry_before_retry_after',
      'api_key_banned',
      'no_exponential_backoff',
    ],
    'rate-limited': ['retry_before_retry_after'],
    'flaky-network': ['blind_retry'],
  },
  // 1 s apart, whatever the Retry-After, and every drop retried, the create too.
  'fetch-retry': {
    'rate-limit-countdown': [
      'retry_before_retry_after',
      'api_key_banned',
      'no_exponential_backoff',
    ],
    'rate-limited': ['retry_before_retry_after', 'no_exponential_backoff'],
    'flaky-network': ['blind_retry', 'no_exponential_backoff'],
  },
  // maxTimeout 30 s against a Retry-After of 50 s.
  undici: {
    'rate-limit-countdown': ['retry_before_retry_after'],
    'rate-limited': ['retry_before_retry_after'],
    'flaky-network': [],
  },
}

const LIBRARIES = Object.keys(RECIPES) as Library[]
const RUN_NAMES = Object.keys(RUNS) as RunName[]
const codesOf = (findings: { code: string }[]) => findings.map(({ code }) => code).sort()

describe.each(LIBRARIES)('%s', (library) => {
  test.each(RUN_NAMES)('recommended, %s: nothing above info', async (run) => {
    const { report, requests } = await grade(
      RECIPES[library].recommended,
      RUNS[run],
      true,
    )
    expect(problems(report), requests).toEqual([])
  })

  test.each(RUN_NAMES)('naive, %s: the findings the docs promise', async (run) => {
    const { report, requests } = await grade(RECIPES[library].naive, RUNS[run], false)
    expect(codesOf(problems(report)), requests).toEqual([...NAIVE[library][run]].sort())
  })

  test('recommended, rate-limited by a header, then a plain list: nothing above info', async () => {
    const { report, requests } = await grade(RECIPES[library].recommended, WINDOWS, true)
    expect(problems(report), requests).toEqual([])
    expect(codesOf(report.findings)).toContain('rate_limit_exceeded')
  })
})

test("undici's 30 s maxTimeout: the message gives the wait and the Retry-After", async () => {
  const { report } = await grade(
    RECIPES.undici.naive,
    RUNS['rate-limit-countdown'],
    false,
  )
  const early = report.findings.find(({ code }) => code === 'retry_before_retry_after')
  expect(early?.message).toContain(
    'The latest was sent 30.0 s after a 429 whose Retry-After asked for 50 s (20.0 s early).',
  )
})

// got and axios name themselves in User-Agent, and the fix names their setting; undici's
// request() sends no User-Agent, nor does Node's fetch name ky, p-retry or fetch-retry.
test('the fix names the setting of the library the User-Agent names', async () => {
  const fixOf = async (library: Library, run: RunName, code: string) => {
    const { report } = await grade(RECIPES[library].naive, RUNS[run], false)
    return report.findings.find((finding) => finding.code === code)?.fix
  }
  expect(await fixOf('got', 'rate-limit-countdown', 'retry_before_retry_after')).toMatch(
    /With got: leave retry\.calculateDelay to got/,
  )
  expect(await fixOf('axios-retry', 'flaky-network', 'blind_retry')).toMatch(
    /With axios-retry: a retryCondition that refuses POST/,
  )
  expect(await fixOf('axios-retry', 'flaky-network', 'no_exponential_backoff')).toMatch(
    /With axios-retry: retryDelay: axiosRetry\.exponentialDelay/,
  )
})
