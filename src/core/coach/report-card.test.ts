import { describe, expect, test } from 'vitest'
import { SandboxError } from '../common/errors.js'
import { MAX_FINDINGS } from './report-tallies.js'
import {
  ReportCard,
  type ObserveContext,
  type ObservedEntry,
  type Report,
} from './report-card.js'
import { assertWellBehaved, problems } from './report-card-check.js'
import { BUILT_IN_SCENARIOS, type Scenario } from '../scenarios/scenarios.js'
import { validateListQuery, validateNewPet, validatePetId } from '../api/validation.js'

const scenario = (name: string): Scenario =>
  BUILT_IN_SCENARIOS.find((each) => each.name === name) as Scenario
const START = Date.parse('2027-01-01T00:00:00.000Z')
const encoder = new TextEncoder()

/** Feeds a card requests as the journal would see them, with a sandbox time of its own. */
function client(options: { scenario?: Scenario; frozen?: boolean } = {}) {
  const card = new ReportCard()
  let id = 0
  let now = START
  const context = (
    body?: string,
    extra: Partial<ObserveContext> = {},
  ): ObserveContext => ({
    scenario: options.scenario ?? scenario('default'),
    clock: { state: () => ({ frozen: options.frozen ?? false }) },
    ...(body === undefined ? {} : { body: encoder.encode(body) }),
    ...extra,
  })
  return {
    card,
    /** Moves the sandbox time on. */
    wait(ms: number) {
      now += ms
    },
    send(
      fields: Partial<ObservedEntry> = {},
      body?: string,
      extra?: Partial<ObserveContext>,
    ): number {
      id++
      card.observe(
        {
          id,
          at: new Date(now).toISOString(),
          method: 'GET',
          status: 200,
          key: 'sandbox-free-key',
          operation: 'listPets',
          ...fields,
        },
        context(body, extra),
      )
      return id
    },
    report(frozen = false): Report {
      return card.report('default', new Date(START).toISOString(), frozen)
    },
  }
}

const tooMany = {
  status: 429,
  code: 'rate_limit_exceeded',
  message: 'Rate limit exceeded.',
} as const
const create = (fields: Partial<ObservedEntry> = {}): Partial<ObservedEntry> => ({
  method: 'POST',
  operation: 'createPet',
  status: 201,
  ...fields,
})
const invalid = (message: string, code = 'validation_failed') => ({
  status: 400,
  code,
  message,
})
const failed = (result: { ok: boolean; message?: string }) => {
  if (result.ok || result.message === undefined) throw new Error('expected a failure')
  return result.message
}
const summary = (report: Report) =>
  report.findings.map(({ code, severity, count }) => [severity, code, count])

describe('a well-behaved client', () => {
  test('gets no finding at all', () => {
    const { send, report, wait } = client()
    for (let index = 0; index < 20; index++) {
      send()
      wait(500)
    }
    send(create(), '{"name":"Rex","categoryId":1}')
    wait(500)
    send(create(), '{"name":"Bo","categoryId":1}')
    expect(report()).toEqual({
      session: 'default',
      since: '2027-01-01T00:00:00.000Z',
      requests: 22,
      findings: [],
    })
  })

  test('that honours Retry-After and backs off gets only info', () => {
    const { send, report, wait } = client({ scenario: scenario('rate-limit-countdown') })
    for (let index = 0; index < 5; index++) send()
    send(tooMany)
    wait(60_000) // waits out Retry-After: the next window
    send()
    // Under rate-limited, every window starts used up: it waits longer each time.
    for (const waitMs of [60_000, 120_000, 240_000, 480_000]) {
      send(tooMany)
      wait(waitMs)
    }
    send()
    const card = report()
    expect(summary(card)).toEqual([['info', 'rate_limit_exceeded', 5]])
    expect(problems(card)).toEqual([])
    expect(() => assertWellBehaved(card)).not.toThrow()
  })
})

describe('each code', () => {
  test('retry_before_retry_after: an error per early retry, with the 5 latest ids', () => {
    const { send, report } = client()
    send(tooMany)
    const early: number[] = []
    for (let index = 0; index < 8; index++) {
      early.push(send({ ...tooMany, ignoredRetryAfter: true }))
    }
    const [finding] = report().findings
    expect(finding).toMatchObject({
      code: 'retry_before_retry_after',
      severity: 'error',
      count: 8,
      requestIds: early.slice(-5).reverse(),
    })
    expect(finding?.message).toMatch(/while a 429 .* still asked it to wait/)
    expect(finding?.fix).toMatch(/Retry-After/)
    expect(report().findings.find((f) => f.code === 'rate_limit_exceeded')).toMatchObject(
      {
        severity: 'info',
        count: 9,
        requestIds: early.slice(-5).reverse(),
      },
    )
  })

  test('api_key_banned: an error per request refused by the ban', () => {
    const { send, report } = client()
    send({
      status: 429,
      code: 'api_key_temporarily_banned',
      ignoredRetryAfter: true,
    })
    expect(summary(report())).toEqual([
      ['error', 'api_key_banned', 1],
      ['error', 'retry_before_retry_after', 1],
    ])
  })

  test('endpoint_removed is an error, and deprecated_endpoint a warning before the sunset', () => {
    const { send, report } = client()
    const getPet = { operation: 'getPet', deprecated: true } as const
    send(getPet)
    send({ ...getPet, status: 404, code: 'not_found', message: 'No pet with id 9.' })
    send({ ...getPet, status: 410, code: 'endpoint_removed', message: 'Removed.' })
    expect(summary(report())).toEqual([
      ['error', 'endpoint_removed', 1],
      ['warning', 'deprecated_endpoint', 2],
    ])
    const deprecated = report().findings[1]
    expect(deprecated?.fix).toMatch(/GET \/v1\/pets with the status filter/)
  })

  test('invalid_request groups 400s by error code and the field the message names', () => {
    const { send, report } = client()
    const noName = failed(validateNewPet({ categoryId: 1 }))
    const neither = failed(validateNewPet({}))
    const badLimit = failed(validateListQuery(new URLSearchParams('limit=500')))
    const badId = failed(validatePetId('abc'))
    const notObject = failed(validateNewPet([1]))
    send({ ...create(invalid(noName)) })
    send({ ...create(invalid(noName)) })
    send({ ...create(invalid(neither)) })
    send(invalid(badLimit))
    send({ operation: 'getPet', ...invalid(badId) })
    send({ ...create(invalid(notObject)) })
    send({ ...create(invalid('The body is not valid JSON.', 'invalid_json')) })
    send(
      invalid(
        'The x-sandbox-scenario header names no loaded scenario.',
        'unknown_scenario',
      ),
    )
    const findings = report().findings.filter((f) => f.code === 'invalid_request')
    expect(findings.every((f) => f.severity === 'warning')).toBe(true)
    const byWords = findings.map((f) => [
      f.count,
      f.message.split(' 400 ')[1]?.split(/ \(|\. /)[0],
    ])
    expect(byWords).toEqual([
      [1, 'invalid_json because the body was not valid JSON'],
      [1, 'unknown_scenario'],
      [1, "validation_failed because body broke the API's rules"],
      [1, "validation_failed because categoryId broke the API's rules"],
      [1, "validation_failed because limit broke the API's rules"],
      [3, "validation_failed because name broke the API's rules"],
      [1, "validation_failed because petId broke the API's rules"],
    ])
    const fixes = findings.map((f) => f.fix)
    expect(fixes).toContain(
      'Check name before sending: it must be a non-empty string of at most 1,000 characters.',
    )
    expect(fixes.some((fix) => fix.includes('JSON.stringify'))).toBe(true)
    expect(fixes.some((fix) => fix.includes('GET /__sandbox lists them'))).toBe(true)
  })

  test('authentication_failed: a warning per 401 code, info for an expired key', () => {
    const { send, report } = client()
    const unauthorized = (code: string) => ({ status: 401, code, message: '401' })
    send({ ...unauthorized('missing_api_key'), key: undefined })
    send({ ...unauthorized('missing_api_key'), key: undefined })
    send({ ...unauthorized('malformed_authorization'), key: undefined })
    send({ ...unauthorized('invalid_api_key'), key: undefined })
    send({ ...unauthorized('expired_api_key'), key: 'sandbox-expired-key' })
    expect(summary(report())).toEqual([
      ['warning', 'authentication_failed', 1],
      ['warning', 'authentication_failed', 1],
      ['warning', 'authentication_failed', 2],
      ['info', 'authentication_failed', 1],
    ])
    const messages = report().findings.map((f) => f.message)
    expect(messages[0]).toMatch(/invalid_api_key/)
    expect(messages[1]).toMatch(/malformed_authorization/)
    expect(messages[2]).toMatch(/without an API key/)
    expect(messages[3]).toMatch(/expired key.*what you chose to rehearse/)
  })

  test('no_exponential_backoff: the third unasked retry in a row whose wait did not grow', () => {
    const { send, report, wait } = client()
    const backoff = () =>
      report().findings.find((f) => f.code === 'no_exponential_backoff')
    // Immediately, over and over, after 429s that named no Retry-After: flagged from the
    // third retry on, the one that finally went through included.
    send(tooMany)
    const retries: number[] = []
    for (let index = 0; index < 4; index++) retries.push(send(tooMany))
    retries.push(send())
    expect(backoff()).toMatchObject({
      severity: 'warning',
      count: 3,
      requestIds: retries.slice(2).reverse(),
    })
    // Doubling waits: not flagged.
    for (const ms of [1000, 2000, 4000, 8000]) {
      send(tooMany)
      wait(ms)
    }
    send()
    // Two flat retries are not three: not flagged.
    send(tooMany)
    wait(5000)
    send(tooMany)
    wait(5000)
    send()
    expect(backoff()?.count).toBe(3)
    // A wait that grows by less than a quarter is flat.
    send(tooMany)
    for (const ms of [1000, 1300, 1600]) {
      wait(ms)
      send(tooMany)
    }
    expect(backoff()?.count).toBe(4)
    expect(backoff()?.fix).toMatch(/at least 1\.25 times the one before/)
    // The numbers of the latest run: its retries, after what, and its waits.
    expect(backoff()?.message).toMatch(
      /The latest run: 3 retries in a row after 429s sent before their Retry-After, waiting 1\.0 s, 1\.3 s, 1\.6 s/,
    )
  })

  test('waiting what Retry-After asks is never "no backoff", with or without jitter', () => {
    const asked = (retryAfter: number) => ({
      ...tooMany,
      rateLimit: { limit: 5, remaining: 0, reset: 0, retryAfter },
    })
    for (const waits of [
      [60_000, 60_000, 60_000, 60_000, 60_000],
      [60_000, 60_050, 60_100, 60_150, 60_200],
      [60_400, 60_000, 60_300, 60_000, 60_100],
      // Retry-After is rounded up: a wait up to 1 s shorter still honours it.
      [59_200, 59_500, 59_100, 59_300],
    ]) {
      const { send, report, wait } = client()
      send(asked(60))
      for (const ms of waits) {
        wait(ms)
        send(asked(60))
      }
      wait(60_000)
      send()
      expect(summary(report())).toEqual([
        ['info', 'rate_limit_exceeded', waits.length + 1],
      ])
    }
  })

  test('constant early retries are still flagged, with their numbers', () => {
    const { send, report, wait } = client()
    const early = {
      ...tooMany,
      rateLimit: { limit: 5, remaining: 0, reset: 0, retryAfter: 32 },
    }
    send(early)
    for (let index = 0; index < 4; index++) {
      wait(2_000)
      send({ ...early, ignoredRetryAfter: true })
    }
    const card = report()
    expect(summary(card)).toEqual([
      ['error', 'retry_before_retry_after', 4],
      ['warning', 'no_exponential_backoff', 2],
      ['info', 'rate_limit_exceeded', 5],
    ])
    expect(card.findings[0]?.message).toMatch(
      /The latest was sent 2\.0 s after a 429 whose Retry-After asked for 32 s \(30\.0 s early\)\./,
    )
  })

  test('a run belongs to one key and scenario window; a success ends it', () => {
    const { send, report, wait } = client()
    const limited = { window: 'sandbox-free-key\nrate-limited' }
    const asked = {
      ...tooMany,
      rateLimit: { limit: 1, remaining: 0, reset: 0, retryAfter: 30 },
    }
    // ky's case: three 429s under a scenario's window, each waited out, then at once a
    // request of the plain window: a new run, not a fourth retry.
    send(asked, undefined, limited)
    wait(60_000)
    send(asked, undefined, limited)
    wait(61_000)
    send(asked, undefined, limited)
    send()
    // Immediate unasked retries spread over two keys: two runs of two, not one of four.
    send(tooMany)
    send(tooMany, undefined, { window: 'sandbox-pro-key' })
    send(tooMany)
    send(tooMany, undefined, { window: 'sandbox-pro-key' })
    send()
    send({}, undefined, { window: 'sandbox-pro-key' })
    // After a success, a new run: 429, retry, retry answered 200, then the same again
    // is two runs of two retries, not one of five.
    send(tooMany)
    send(tooMany)
    send()
    send(tooMany)
    send(tooMany)
    send()
    expect(problems(report())).toEqual([])
  })

  test('retries after dropped connections and 5xx answers must grow too', () => {
    const { send, report, wait } = client()
    const dropped = { dropped: true as const, status: 0 }
    send(dropped)
    for (let index = 0; index < 3; index++) {
      wait(1000)
      send(dropped)
    }
    wait(1000)
    send()
    const unavailable = { status: 503, code: 'service_unavailable' }
    for (const ms of [500, 1000, 2000, 4000]) {
      send(unavailable)
      wait(ms)
    }
    send()
    // 501 is no passing failure: asking again is no retry.
    for (let index = 0; index < 5; index++) {
      send({ operation: 'listOrders', status: 501, code: 'not_implemented' })
    }
    const card = report()
    expect(card.findings.find((f) => f.code === 'no_exponential_backoff')).toMatchObject({
      count: 2,
    })
    expect(
      card.findings.find((f) => f.code === 'no_exponential_backoff')?.message,
    ).toMatch(/after dropped connections, waiting 1\.0 s, 1\.0 s, 1\.0 s, 1\.0 s/)
  })

  test('requests in flight when a failure was answered are no retries of it', () => {
    const { send, report, wait } = client()
    const dropped = { dropped: true as const, status: 0 }
    // Promise.all of 4 lists, all dropped, three times with waits of 1, 2 and 4 s: each
    // batch's other three were sent before the first drop was answered.
    // All four had arrived when the first was answered: the world's latest id was the
    // fourth's.
    let id = 0
    for (const ms of [1000, 2000, 4000]) {
      const last = id + 4
      for (let index = 0; index < 4; index++)
        id = send(dropped, undefined, { issued: last })
      wait(ms)
    }
    // 9 lists at once under a 429: the 429s of the batch did not ignore Retry-After.
    const last = id + 9
    send(tooMany, undefined, { issued: last })
    for (let index = 1; index < 9; index++) {
      send({ ...tooMany, ignoredRetryAfter: true }, undefined, { issued: last })
    }
    expect(problems(report())).toEqual([])
  })

  test('a wait counts from the answer, and only for the same request', () => {
    const { send, report, wait } = client()
    const slow = { status: 503, code: 'service_unavailable', durationMs: 2500 }
    // Answers take 2.5 s; the client waits 0.3, 0.6, 1.2, 2.4 s after each answer.
    send(slow)
    for (const ms of [300, 600, 1200, 2400]) {
      wait(2500 + ms)
      send(slow)
    }
    wait(2500 + 4800)
    send()
    // Another request after a failure is no retry of it: a drop of a list, then a create.
    send({ dropped: true, status: 0 })
    send(create(), '{"name":"Rex","categoryId":1}')
    send({ dropped: true, status: 0, path: '/v1/pets?limit=2' })
    send({ dropped: true, status: 0, path: '/v1/pets?limit=3' })
    send({ dropped: true, status: 0, path: '/v1/pets?limit=4' })
    send({ dropped: true, status: 0, path: '/v1/pets?limit=5' })
    expect(problems(report())).toEqual([])
  })

  test('a patient pace, or a clock set back, is no flat run', () => {
    const { send, report, wait } = client()
    const dropped = { dropped: true as const, status: 0 }
    // A dashboard polling every 5 s through four drops in a row.
    send(dropped)
    for (let index = 0; index < 4; index++) {
      wait(5000)
      send(dropped)
    }
    wait(5000)
    send()
    // Growing waits, then the clock is set 3 s back: a new run, not a wait of -3 s.
    send(dropped)
    wait(1000)
    send(dropped)
    wait(2000)
    send(dropped)
    wait(-3000)
    send()
    expect(problems(report())).toEqual([])
  })

  test('blind_retry: a read your own handler answered counts; a failed read does not', () => {
    const { send, report } = client()
    const rex = '{"name":"Rex","categoryId":1}'
    const bo = '{"name":"Bo","categoryId":1}'
    const dropped = create({ dropped: true, status: 0 })
    send(dropped, rex)
    send({ override: true, status: 200, operation: undefined })
    send(create(), rex)
    send(dropped, bo)
    send({
      status: 400,
      code: 'validation_failed',
      message: 'Invalid query: limit must be an integer.',
    })
    const blind = send(create(), bo)
    expect(report().findings.find((f) => f.code === 'blind_retry')).toMatchObject({
      count: 1,
      requestIds: [blind],
    })
  })

  test("a finding's numbers and library are its latest request's", () => {
    const { send, report } = client()
    const headers = new Headers({
      'user-agent': 'got (https://github.com/sindresorhus/got)',
    })
    send(create({ dropped: true, status: 0 }), '{}', { headers })
    send(create(), '{}', { headers })
    send(create({ dropped: true, status: 0 }), '[]', { headers })
    send(create(), '[]', { headers: new Headers({ 'user-agent': 'node' }) })
    const finding = report().findings.find((f) => f.code === 'blind_retry')
    expect(finding?.count).toBe(2)
    expect(finding?.fix).not.toMatch(/With got/)
  })

  test('blind_retry: a dropped create sent again with no read in between', () => {
    const { send, report, wait } = client()
    const rex = '{"name":"Rex","categoryId":1}'
    const bo = '{"name":"Bo","categoryId":1}'
    const dropped = create({ dropped: true, status: 0 })
    send(dropped, rex)
    wait(400)
    const blind = send(create(), rex)
    // A read in between: the client looked before sending again.
    send(dropped, bo)
    send({ operation: 'listPets' })
    send(create(), bo)
    // A dropped read reads nothing.
    const cat = '{"name":"Cat","categoryId":2}'
    send(dropped, cat)
    send({ operation: 'listPets', dropped: true, status: 0 })
    const again = send(dropped, cat)
    // Another key, another body: not a retry of the drop.
    send(dropped, '{"name":"Dog","categoryId":1}')
    send(create({ key: 'sandbox-pro-key' }), '{"name":"Dog","categoryId":1}')
    send(create(), '{"name":"Emu","categoryId":1}')
    const card = report()
    const finding = card.findings.find((f) => f.code === 'blind_retry')
    expect(finding).toMatchObject({
      severity: 'warning',
      count: 2,
      requestIds: [again, blind],
    })
    expect(finding?.message).toMatch(/The latest was sent again 0\.0 s after the drop/)
    expect(finding?.fix).toMatch(/GET \/v1\/pets/)
  })

  test('a fix names the setting of the library the User-Agent names', () => {
    const agents: [string, RegExp][] = [
      [
        'got (https://github.com/sindresorhus/got)',
        /With got: keep POST out of retry\.methods/,
      ],
      ['axios/1.7.9', /With axios-retry: a retryCondition that refuses POST/],
      ['undici', /With undici's RetryAgent: keep POST out of methods/],
    ]
    for (const [agent, setting] of agents) {
      const { send, report } = client()
      const headers = new Headers({ 'user-agent': agent })
      const rex = '{"name":"Rex","categoryId":1}'
      send(create({ dropped: true, status: 0 }), rex, { headers })
      send(create(), rex, { headers })
      expect(report().findings.find((f) => f.code === 'blind_retry')?.fix).toMatch(
        setting,
      )
    }
    // Node's own fetch (ky, p-retry, fetch-retry) names no library: the fix stays general.
    const { send, report } = client()
    const headers = new Headers({ 'user-agent': 'node' })
    send(create({ dropped: true, status: 0 }), '{}', { headers })
    send(create(), '{}', { headers })
    expect(report().findings.find((f) => f.code === 'blind_retry')?.fix).not.toMatch(
      /With /,
    )
  })

  test('duplicate_create: the same body, same key, both created, within 10 s', () => {
    const { send, report, wait } = client()
    const rex = '{"name":"Rex","categoryId":1}'
    send(create(), rex)
    wait(9_000)
    const twice = send(create(), rex)
    wait(11_000)
    send(create(), rex) // 11 s after the last: a new pet, not a double submit
    send(create({ key: 'sandbox-pro-key' }), rex) // another key
    send(create(), '{"name":"Rex","categoryId":2}') // another body
    send(create({ status: 429, code: 'rate_limit_exceeded' }), rex) // nothing created
    wait(1_000)
    expect(report().findings.filter((f) => f.code === 'duplicate_create')).toMatchObject([
      { severity: 'info', count: 1, requestIds: [twice] },
    ])
    // Without the bytes (a context that has none), the journal's text stands in.
    const { send: sendText, report: reportText } = client()
    sendText(create({ body: rex }))
    sendText(create({ body: rex }))
    expect(summary(reportText())).toEqual([['info', 'duplicate_create', 1]])
  })

  test('unmodelled_endpoint and connection_dropped are info', () => {
    const { send, report } = client()
    send({ operation: 'listOrders', status: 501, code: 'not_implemented' })
    send({ dropped: true, status: 0 })
    expect(summary(report())).toEqual([
      ['info', 'connection_dropped', 1],
      ['info', 'unmodelled_endpoint', 1],
    ])
  })

  test("your own handlers' answers are counted, not graded", () => {
    const { send, report } = client()
    send({ override: true, status: 401, code: 'missing_api_key' })
    expect(report()).toMatchObject({ requests: 1, findings: [] })
  })
})

describe('what the user chose is info', () => {
  test('401s of expired-key and invalid-key; a missing key stays a warning', () => {
    for (const name of ['expired-key', 'invalid-key']) {
      const { send, report } = client({ scenario: scenario(name) })
      const code = name === 'expired-key' ? 'expired_api_key' : 'invalid_api_key'
      send({ status: 401, code, message: `scenario "${name}"` })
      send({ status: 401, code: 'missing_api_key', key: undefined })
      expect(summary(report())).toEqual([
        ['warning', 'authentication_failed', 1],
        ['info', 'authentication_failed', 1],
      ])
    }
  })

  test("a failure forced by the scenario's errors field", () => {
    const forcing = {
      name: 'sunset-now',
      description: 'x',
      errors: {
        getPet: { status: 410, code: 'endpoint_removed', message: 'Gone.' },
        createPet: { status: 400, code: 'validation_failed' },
      },
    }
    const { send, report } = client({ scenario: forcing })
    send({
      operation: 'getPet',
      deprecated: true,
      status: 410,
      code: 'endpoint_removed',
      message: 'Gone.',
    })
    const forced = 'Forced by the scenario "sunset-now" (validation_failed).'
    send(create({ ...invalid(forced) }))
    // The client's own mistake under the same scenario stays a warning.
    send(create({ ...invalid(failed(validateNewPet({}))) }))
    const findings = report().findings
    expect(summary(report())).toEqual([
      ['warning', 'invalid_request', 1],
      ['warning', 'invalid_request', 1],
      ['info', 'endpoint_removed', 1],
      ['info', 'invalid_request', 1],
    ])
    expect(findings[2]?.message).toMatch(/forced by the scenario you chose/)
  })

  test('the 429s of rate-limited are info, ignoring them is still an error', () => {
    const { send, report } = client({ scenario: scenario('rate-limited') })
    send(tooMany)
    send({ ...tooMany, ignoredRetryAfter: true })
    expect(summary(report())).toEqual([
      ['error', 'retry_before_retry_after', 1],
      ['info', 'rate_limit_exceeded', 2],
    ])
  })
})

test('a frozen clock turns backoff and duplicates off, and the report says so', () => {
  const { send, report } = client({ frozen: true })
  for (let index = 0; index < 6; index++) send(tooMany)
  send(create(), '{"name":"Rex","categoryId":1}')
  send(create(), '{"name":"Rex","categoryId":1}')
  const card = report(true)
  expect(card.clockFrozen).toBe(true)
  expect(summary(card)).toEqual([['info', 'rate_limit_exceeded', 6]])
  expect(report(false)).not.toHaveProperty('clockFrozen')
})

test('the findings come in a stable order: errors, warnings, info, then by code', () => {
  const { send, report } = client()
  send({ operation: 'listOrders', status: 501, code: 'not_implemented' })
  send({ operation: 'getPet', deprecated: true })
  send({ ...tooMany, ignoredRetryAfter: true })
  send({ status: 401, code: 'missing_api_key', key: undefined })
  send({ status: 429, code: 'api_key_temporarily_banned', ignoredRetryAfter: true })
  expect(report().findings.map((f) => `${f.severity} ${f.code}`)).toEqual([
    'error api_key_banned',
    'error retry_before_retry_after',
    'warning authentication_failed',
    'warning deprecated_endpoint',
    'info rate_limit_exceeded',
    'info unmodelled_endpoint',
  ])
})

test('memory stays bounded: 5 examples a finding, 32 fields of 400s a card', () => {
  const { send, report } = client()
  for (let index = 0; index < 1000; index++) {
    send(invalid(`Invalid body: field${index} must be a string.`))
  }
  const findings = report().findings
  // 32 fields, then one finding for the rest of the code's 400s.
  expect(findings.length).toBe(33)
  expect(findings.find((f) => f.count === 1000 - 32)?.message).toMatch(
    /400 validation_failed \(the message of each 400 says what was wrong\)/,
  )
  expect(findings.reduce((sum, f) => sum + f.count, 0)).toBe(1000)
  expect(findings.every((f) => f.requestIds.length <= 5)).toBe(true)
})

describe('the card stays small whatever the groups', () => {
  /** A card fed `count` 400s, each forced by a scenario whose error code is new. */
  const forcedCodes = (count: number) => {
    const card = new ReportCard()
    const clock = { state: () => ({ frozen: false }) }
    for (let id = 1; id <= count; id++) {
      const code = `c${id}`
      const forcing = { name: 't', errors: { '*': { status: 400, code } } }
      card.observe(
        {
          id,
          at: new Date(START).toISOString(),
          method: 'GET',
          status: 400,
          key: 'sandbox-free-key',
          operation: 'listPets',
          code,
          message: `Forced by the scenario "t" (${code}).`,
        },
        { scenario: forcing, clock },
      )
    }
    return card.report('default', new Date(START).toISOString(), false)
  }

  test('5,000 distinct forced codes: bounded findings, one catch-all that teaches', () => {
    const card = forcedCodes(5000)
    expect(card.findings.length).toBeLessThanOrEqual(MAX_FINDINGS)
    expect(JSON.stringify(card).length).toBeLessThan(40_000)
    expect(card.findings.reduce((sum, f) => sum + f.count, 0)).toBe(5000)
    expect(card.findings.every((f) => f.requestIds.length <= 5)).toBe(true)
    // The first codes keep a finding each; the rest share one, the last of its kind.
    expect(card.findings[0]?.message).toMatch(/^Requests were answered 400 c1\. /)
    const other = card.findings.at(-1)
    expect(other).toMatchObject({
      code: 'invalid_request',
      severity: 'info',
      count: 5000 - 40,
      requestIds: [5000, 4999, 4998, 4997, 4996],
    })
    // Which failures it holds, the latest, and what to do.
    expect(other?.message).toMatch(
      /^Past 40 findings the card stops telling 400s apart: this finding holds the error codes that came after \(the latest: 400 c5000\)\. Requests were answered 400 c5000\. The 400 was forced by the scenario you chose/,
    )
    expect(other?.fix).toMatch(/Show the failure to the user/)
  })

  test('the catch-all starts with the 41st group', () => {
    expect(forcedCodes(40).findings).toHaveLength(40)
    const card = forcedCodes(41)
    expect(card.findings).toHaveLength(41)
    expect(card.findings.at(-1)).toMatchObject({ count: 1, requestIds: [41] })
    expect(card.findings.at(-1)?.message).toMatch(
      /^Past 40 findings the card stops telling 400s apart: this finding holds the error codes that came after \(the latest: 400 c41\)\. Requests were answered 400 c41\. /,
    )
  })

  test("the client's own 400s and 401s of new codes and fields fold the same way", () => {
    const { send, report } = client()
    for (let index = 0; index < 3000; index++) {
      send(invalid(`Invalid body: field${index} must be a string.`, `code${index % 50}`))
      send({ status: 401, code: `auth${index}`, message: 'No.', key: undefined })
    }
    // Past the limit, the errors the card tells apart by no group still get theirs.
    send({ ...tooMany, ignoredRetryAfter: true })
    const card = report()
    expect(card.findings.length).toBeLessThanOrEqual(MAX_FINDINGS)
    expect(JSON.stringify(card).length).toBeLessThan(40_000)
    expect(card.findings.reduce((sum, f) => sum + f.count, 0)).toBe(6002)
    expect(summary(card).slice(0, 2)).toEqual([
      ['error', 'retry_before_retry_after', 1],
      ['warning', 'authentication_failed', 1],
    ])
    const others = card.findings.filter((f) => f.message.startsWith('Past 40 findings'))
    expect(others.map((f) => [f.severity, f.code])).toEqual([
      ['warning', 'authentication_failed'],
      ['warning', 'invalid_request'],
    ])
    expect(others[0]?.message).toMatch(
      /holds the error codes that came after \(the latest: 401 auth2999\)/,
    )
    expect(others[1]?.message).toMatch(
      /error codes and fields that came after \(the latest: 400 code49 field2999\)\. Requests were rejected with 400 code49 because field2999 broke/,
    )
    expect(others[1]?.fix).toMatch(/GET \/__sandbox\/requests\/<id>/)
  })

  test('a group from the client or a scenario is clipped to 120 characters', () => {
    const { send, report } = client()
    send(invalid(`Invalid body: ${'f'.repeat(40)} is wrong.`, 'x'.repeat(10_000)))
    const [finding] = report().findings
    expect(finding?.message.length).toBeLessThan(600)
    expect(finding?.message).toContain(`400 ${'x'.repeat(80)}`)
  })
})

test('reset() empties the card', () => {
  const { send, report, card } = client()
  send({ ...tooMany, ignoredRetryAfter: true })
  card.reset()
  expect(report()).toMatchObject({ requests: 0, findings: [] })
})

describe('in tests: no finding above info', () => {
  test('problems() lists the findings above info', () => {
    const { send, report } = client()
    send(tooMany)
    send({ ...tooMany, ignoredRetryAfter: true })
    expect(problems(report()).map((f) => f.code)).toEqual(['retry_before_retry_after'])
  })

  test('assertWellBehaved() throws a SandboxError listing each finding and its fix', () => {
    const { send, report } = client()
    send(tooMany)
    const early = send({ ...tooMany, ignoredRetryAfter: true })
    let thrown: unknown
    try {
      assertWellBehaved(report())
    } catch (error) {
      thrown = error
    }
    expect(thrown).toBeInstanceOf(SandboxError)
    expect((thrown as SandboxError).code).toBe('CLIENT_MISBEHAVED')
    const lines = (thrown as SandboxError).message.split('\n')
    expect(lines[0]).toBe(
      'Failed to pass the report card of the session "default": 1 finding(s) above info.',
    )
    expect(lines[1]).toMatch(
      new RegExp(
        `^- error retry_before_retry_after: 1 request\\(s\\), the latest ${early}\\. .+ Fix: After a 429`,
      ),
    )
    expect(lines).toHaveLength(3)
  })
})
