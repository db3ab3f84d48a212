import {
  describeAnswer,
  failed,
  notAnError,
  notThePet,
  notPets,
  passed,
  problemOf,
  skipped,
  type CheckResult,
  type Holds,
} from './judge.js'
import type { Answer, ProbeRequest, Seen } from './probe.js'
import { rateLimitOf, type Runner } from './runner.js'

// The read-only checks: what a client sees of listPets, getPet, the 401 kinds, the
// Error bodies and the headers of every answer. Each says what it holds the server to.

/** Far above any seeded or created id, within the ids the API can represent. */
export const MISSING_ID = 9007199254740991

/** What the checks share: the runner and where their results go. */
export interface CheckContext {
  run: Runner
  baseUrl: string
  report: (result: CheckResult) => void
}

const get = (
  path: string,
  auth: ProbeRequest['auth'] = { kind: 'key' },
): ProbeRequest => ({
  method: 'GET',
  path,
  auth,
})

/** Sends `request` and reports one check: passed when `judge` finds no problem. */
export async function expectAnswer(
  context: CheckContext,
  name: string,
  holds: Holds,
  request: ProbeRequest,
  expected: string,
  judge: (seen: Seen) => string | undefined,
  /** Called once the answer is in, before the result is reported. */
  answered?: () => void,
  /** The answer to `request` when it was sent already (the run's first request). */
  sent?: Seen,
): Promise<Seen> {
  const seen = sent ?? (await context.run.send(request))
  answered?.()
  const problem = judge(seen)
  context.report(
    problem === undefined
      ? passed(name, holds)
      : failed(name, holds, expected, problem, { baseUrl: context.baseUrl, request }),
  )
  return seen
}

/** A 400 for an invalid value: the status is the sandbox's decision (the API lists none for listPets or petId). */
const invalidValue = (seen: Seen) =>
  problemOf(seen, 400, (json, answer) => {
    const wrong = notAnError(json, answer.status)
    if (wrong) return wrong
    const code = (json as { code: string }).code
    return code === 'validation_failed' ? undefined : `code ${code}`
  })

/** The first request of a run: listPets with the key, `GET {base}/pets`. */
export const FIRST_REQUEST = get('/pets')

/**
 * The list checks; the first answer's list, for getPet to pick an id from. `first` is
 * the answer to {@link FIRST_REQUEST} when it was sent already (first-request.ts).
 */
export async function listChecks(
  context: CheckContext,
  onFirst: () => void,
  first?: Seen,
) {
  const list = await expectAnswer(
    context,
    'listPets answers 200 with an array of Pets',
    'document',
    FIRST_REQUEST,
    '200 with a JSON array of Pets {id, name, categoryId, status?}',
    (seen) => problemOf(seen, 200, (json) => notPets(json)),
    onFirst,
    first,
  )
  await expectAnswer(
    context,
    'listPets returns at most `limit` pets (limit=1)',
    'document',
    get('/pets?limit=1'),
    '200 with an array of at most 1 Pet',
    (seen) => problemOf(seen, 200, atMostPets(1)),
  )
  await expectAnswer(
    context,
    'listPets accepts limit=100 (the largest)',
    'document',
    get('/pets?limit=100'),
    '200 with an array of at most 100 Pets',
    (seen) => problemOf(seen, 200, atMostPets(100)),
  )
  for (const limit of ['0', '101']) {
    await expectAnswer(
      context,
      `listPets refuses limit=${limit} (outside 1..100) with 400 validation_failed`,
      'decision',
      get(`/pets?limit=${limit}`),
      '400 with an Error body, code validation_failed',
      invalidValue,
    )
  }
  await expectAnswer(
    context,
    'listPets with status=available returns only available pets',
    'document',
    get('/pets?status=available'),
    '200 with an array of Pets whose status is available',
    (seen) =>
      problemOf(seen, 200, (json) =>
        notPets(json, (pet) =>
          pet.status === 'available' ? undefined : `status ${JSON.stringify(pet.status)}`,
        ),
      ),
  )
  await expectAnswer(
    context,
    'listPets refuses an unknown status with 400 validation_failed',
    'decision',
    get('/pets?status=adopted'),
    '400 with an Error body, code validation_failed',
    invalidValue,
  )
  return list.ok && Array.isArray(list.json) ? (list.json as { id?: unknown }[]) : []
}

/** The getPet checks, on a pet of the list when there is one, and its deprecation headers. */
export async function getChecks(context: CheckContext, petId: number | undefined) {
  let found: Seen | undefined
  if (petId === undefined) {
    context.report(
      skipped(
        'getPet answers 200 with the Pet',
        'document',
        'the list had no pet to get (run with --writes to create one)',
      ),
    )
  } else {
    found = await expectAnswer(
      context,
      'getPet answers 200 with the Pet',
      'document',
      get(`/pets/${petId}`),
      `200 with the Pet of id ${petId}`,
      (seen) => problemOf(seen, 200, (json) => notThePet(json, 'id', petId)),
    )
  }
  const missing = await expectAnswer(
    context,
    'getPet answers 404 with an Error body for a missing id',
    'document',
    get(`/pets/${MISSING_ID}`),
    '404 with an Error body {code, message, status: 404}',
    (seen) => problemOf(seen, 404, (json, answer) => notAnError(json, answer.status)),
  )
  await expectAnswer(
    context,
    'getPet refuses a petId that is not an integer with 400 validation_failed',
    'decision',
    get('/pets/not-a-number'),
    '400 with an Error body, code validation_failed',
    invalidValue,
  )
  const headersOf = found?.ok ? found : missing.ok ? missing : undefined
  const name =
    'getPet (deprecated) carries Deprecation (RFC 9745), Sunset 5 December 2030 (RFC 8594) and a Link to GET /pets'
  if (!headersOf) {
    context.report(
      skipped(name, 'decision', 'getPet had no answer to read the headers of'),
    )
    return
  }
  const problem = deprecationProblem(headersOf)
  context.report(
    problem
      ? failed(
          name,
          'decision',
          'Deprecation: @<unix seconds>; Sunset: Thu, 05 Dec 2030 00:00:00 GMT; Link: </v1/pets>; rel="successor-version"',
          problem,
          {
            baseUrl: context.baseUrl,
            request: get(found?.ok ? `/pets/${petId}` : `/pets/${MISSING_ID}`),
          },
        )
      : passed(name, 'decision'),
  )
}

function deprecationProblem(answer: Answer): string | undefined {
  const deprecation = answer.headers.get('deprecation')
  const sunset = answer.headers.get('sunset')
  const link = answer.headers.get('link')
  const problems: string[] = []
  if (!deprecation || !/^@\d+$/.test(deprecation.trim()))
    problems.push(
      `Deprecation ${deprecation === null ? 'missing' : JSON.stringify(deprecation)}`,
    )
  const when = sunset === null ? Number.NaN : Date.parse(sunset)
  if (Number.isNaN(when) || new Date(when).toISOString().slice(0, 10) !== '2030-12-05')
    problems.push(`Sunset ${sunset === null ? 'missing' : JSON.stringify(sunset)}`)
  if (!link || !/<[^>]*\/pets>\s*;\s*rel="?successor-version"?/.test(link))
    problems.push(`Link ${link === null ? 'missing' : JSON.stringify(link)}`)
  return problems.length > 0 ? problems.join('; ') : undefined
}

/** The three 401 kinds, each with a key that is wrong on purpose. */
const WRONG_KEYS: { kind: string; auth: ProbeRequest['auth']; code: string }[] = [
  { kind: 'no key', auth: { kind: 'none' }, code: 'missing_api_key' },
  {
    kind: 'a header that is not Bearer',
    auth: { kind: 'header', value: 'Basic cGV0c3RvcmUtc2FuZGJveDpjaGVjaw==' },
    code: 'malformed_authorization',
  },
  {
    kind: 'an unknown key',
    auth: { kind: 'header', value: 'Bearer petstore-sandbox-check-unknown-key' },
    code: 'invalid_api_key',
  },
]

/** listPets with each wrong key: 401 with an Error body (the document), and its code (a decision). */
export async function authChecks(context: CheckContext) {
  for (const wrong of WRONG_KEYS) {
    const request = get('/pets?limit=1', wrong.auth)
    const seen = await expectAnswer(
      context,
      `listPets with ${wrong.kind} answers 401 with an Error body`,
      'document',
      request,
      '401 with an Error body {code, message, status: 401}',
      (answer) => problemOf(answer, 401, (json, got) => notAnError(json, got.status)),
    )
    const name = `listPets with ${wrong.kind} says code ${wrong.code}`
    const code = seen.ok ? (seen.json as { code?: unknown } | undefined)?.code : undefined
    if (!seen.ok || seen.status !== 401) {
      context.report(skipped(name, 'decision', 'the answer was not a 401 (see above)'))
    } else if (code === wrong.code) {
      context.report(passed(name, 'decision'))
    } else {
      context.report(
        failed(name, 'decision', `code ${wrong.code}`, describeAnswer(seen), {
          baseUrl: context.baseUrl,
          request,
        }),
      )
    }
  }
}

/** The rules every answer keeps: rate-limit headers, Error bodies whose status is the HTTP status. */
export function everyAnswerChecks(context: CheckContext) {
  const { answers } = context.run
  const name =
    'every answer carries X-RateLimit-Limit, X-RateLimit-Remaining and X-RateLimit-Reset'
  const errorsName =
    'every error answer has an Error body {code, message, status} whose status is the HTTP status'
  if (answers.length === 0) {
    context.report(skipped(name, 'document', 'no answer came back'))
    context.report(skipped(errorsName, 'document', 'no answer came back'))
    return
  }
  const now = Date.now() / 1000
  const wrong = answers
    .map((each) => ({ ...each, problem: rateHeaderProblem(each.answer.headers, now) }))
    .find((each) => each.problem !== undefined)
  context.report(
    wrong
      ? failed(
          name,
          'document',
          'the three headers on every answer (errors included): a limit of at least 1, what remains of it (0 to the limit), and a Unix time (seconds) of the reset that is not past',
          `${wrong.request.method} ${wrong.request.path} answered ${wrong.answer.status} with ${wrong.problem}`,
          { baseUrl: context.baseUrl, request: wrong.request },
        )
      : passed(name, 'document'),
  )
  const errors = answers.filter(({ answer }) => answer.status >= 400)
  if (errors.length === 0) {
    context.report(skipped(errorsName, 'document', 'no error answer came back'))
    return
  }
  for (const { request, answer } of errors) {
    const wrong = notAnError(answer.json, answer.status)
    if (wrong) {
      context.report(
        failed(
          errorsName,
          'document',
          `${answer.status} with an Error body whose status is ${answer.status}`,
          `${request.method} ${request.path}: ${wrong}`,
          {
            baseUrl: context.baseUrl,
            request,
          },
        ),
      )
      return
    }
  }
  context.report(passed(errorsName, 'document'))
}

/** What is wrong with the rate-limit headers of an answer (at `now`, Unix seconds), or undefined. */
export function rateHeaderProblem(headers: Headers, now: number): string | undefined {
  const shown = ['Limit', 'Remaining', 'Reset']
    .map(
      (part) => `X-RateLimit-${part}: ${headers.get(`x-ratelimit-${part}`) ?? 'missing'}`,
    )
    .join(', ')
  const rate = rateLimitOf(headers)
  if (!rate) return `${shown} (each must be an integer)`
  if (rate.limit < 1) return `${shown} (a limit of 0 allows no request)`
  if (rate.remaining > rate.limit) return `${shown} (more remaining than the limit)`
  // Five minutes of leeway for the clocks of the two machines.
  if (rate.reset < now - 300)
    return `${shown} (the reset, ${new Date(rate.reset * 1000).toISOString()}, is past)`
  return undefined
}

/** How many requests the read-only checks send (getPet's 200 only when the list has a pet). */
export const READ_REQUESTS = 13

/** The body check of a page asked with `limit`: an array of at most that many Pets. */
function atMostPets(limit: number): (json: unknown) => string | undefined {
  return (json) =>
    notPets(json) ??
    ((json as unknown[]).length > limit
      ? `${(json as unknown[]).length} pets`
      : undefined)
}
