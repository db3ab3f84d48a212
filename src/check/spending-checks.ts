import {
  describeAnswer,
  failed,
  notAnError,
  notAPet,
  notThePet,
  passed,
  problemOf,
  skipped,
} from './judge.js'
import type { ProbeRequest } from './probe.js'
import { expectAnswer, type CheckContext } from './read-checks.js'

// The checks that change something: creating pets (--writes) and spending a rate-limit
// window (--rate-limits). Neither runs by default.

/** How many requests the write checks send. */
export const WRITE_REQUESTS = 3
/** The most X-RateLimit-Remaining at which the rate-limit checks spend a window. */
export const SPEND_AT_MOST = 20

/** createPet, then getPet of what it made, then a body without its name. */
export async function writeChecks(context: CheckContext, now: Date) {
  const body = {
    name: `petstore-sandbox check ${now.toISOString()}`,
    categoryId: 1,
    status: 'available',
  }
  const create: ProbeRequest = {
    method: 'POST',
    path: '/pets',
    auth: { kind: 'key' },
    body,
  }
  let id: number | undefined
  await expectAnswer(
    context,
    'createPet answers 201 with the new Pet',
    'document',
    create,
    `201 with a Pet named ${JSON.stringify(body.name)} and a new id`,
    (seen) =>
      problemOf(seen, 201, (json) => {
        const wrong = notAPet(json)
        if (wrong) return wrong
        const pet = json as { id: number; name: string }
        id = pet.id
        return pet.name === body.name ? undefined : `name ${JSON.stringify(pet.name)}`
      }),
  )
  const foundName = 'getPet finds the pet createPet made'
  if (id === undefined) {
    context.report(skipped(foundName, 'document', 'createPet made no pet (see above)'))
  } else {
    const created = id
    await expectAnswer(
      context,
      foundName,
      'document',
      { method: 'GET', path: `/pets/${created}`, auth: { kind: 'key' } },
      `200 with the Pet of id ${created} named ${JSON.stringify(body.name)}`,
      (seen) => problemOf(seen, 200, (json) => notThePet(json, 'name', body.name)),
    )
  }
  await expectAnswer(
    context,
    'createPet refuses a body without name with 400 and an Error body',
    'document',
    { method: 'POST', path: '/pets', auth: { kind: 'key' }, body: { categoryId: 1 } },
    '400 with an Error body {code, message, status: 400}',
    (seen) => problemOf(seen, 400, (json, answer) => notAnError(json, answer.status)),
  )
}

const NAMES = {
  limited: 'a spent window answers 429 with an Error body',
  retryAfter: 'the 429 carries Retry-After (seconds)',
  code: 'the 429 says code rate_limit_exceeded',
  recovered: 'after waiting Retry-After, the key is answered again',
}

/**
 * Spends what remains of the window (only when at most {@link SPEND_AT_MOST}), checks the
 * 429, waits as it asks, checks recovery; stops at a second 429.
 */
export async function rateLimitChecks(context: CheckContext) {
  const { run } = context
  const remaining = run.rate?.remaining
  const skipAll = (why: string) => {
    for (const [kind, name] of Object.entries(NAMES))
      context.report(skipped(name, kind === 'code' ? 'decision' : 'document', why))
  }
  if (run.stopped) return skipAll(run.stopped)
  if (remaining === undefined)
    return skipAll(
      'no X-RateLimit-Remaining was seen, so the check cannot tell how much it would spend',
    )
  if (remaining > SPEND_AT_MOST)
    return skipAll(
      `X-RateLimit-Remaining is ${remaining}: these checks spend a window only when at most ${SPEND_AT_MOST} remain (e.g. a free-plan key near the end of its minute)`,
    )
  const request: ProbeRequest = {
    method: 'GET',
    path: '/pets?limit=1',
    auth: { kind: 'key' },
  }
  let seen = await run.send(request, true)
  for (let sent = 1; seen.ok && seen.status !== 429 && sent <= remaining + 1; sent++)
    seen = await run.send(request, true)
  const repeat = { baseUrl: context.baseUrl, request }
  if (!seen.ok || seen.status !== 429) {
    context.report(
      failed(
        NAMES.limited,
        'document',
        `429 after the ${remaining} remaining requests`,
        describeAnswer(seen),
        repeat,
      ),
    )
    return skipAll3(context, 'no 429 came back')
  }
  const wrong = notAnError(seen.json, 429)
  context.report(
    wrong
      ? failed(
          NAMES.limited,
          'document',
          '429 with an Error body',
          `429, ${wrong}`,
          repeat,
        )
      : passed(NAMES.limited, 'document'),
  )
  const retryAfter = seen.headers.get('retry-after')
  const seconds =
    retryAfter !== null && /^\d+$/.test(retryAfter.trim())
      ? Number(retryAfter)
      : undefined
  context.report(
    seconds === undefined
      ? failed(
          NAMES.retryAfter,
          'document',
          'Retry-After: <seconds>',
          `Retry-After: ${retryAfter ?? 'missing'}`,
          repeat,
        )
      : passed(NAMES.retryAfter, 'document'),
  )
  const code = (seen.json as { code?: unknown } | undefined)?.code
  context.report(
    code === 'rate_limit_exceeded'
      ? passed(NAMES.code, 'decision')
      : failed(
          NAMES.code,
          'decision',
          'code rate_limit_exceeded',
          describeAnswer(seen),
          repeat,
        ),
  )
  await recoveryCheck(context, request, seconds)
}

/** Waits as the 429 asked, then one request, no more: a second 429 ends the checks, never risking a ban. */
async function recoveryCheck(
  context: CheckContext,
  request: ProbeRequest,
  seconds: number | undefined,
) {
  const { run } = context
  if (!(await run.wait((seconds ?? 60) * 1000 + 500))) {
    context.report(
      skipped(
        NAMES.recovered,
        'document',
        `Retry-After asks for ${seconds ?? '(missing: 60 assumed)'} s, more than the run's time budget has left; give more with --timeout`,
      ),
    )
    return
  }
  const again = await run.send(request, true)
  context.report(
    again.ok && again.status === 200
      ? passed(NAMES.recovered, 'document')
      : failed(
          NAMES.recovered,
          'document',
          '200 after waiting Retry-After',
          describeAnswer(again),
          {
            baseUrl: context.baseUrl,
            request,
          },
        ),
  )
}

function skipAll3(context: CheckContext, why: string) {
  context.report(skipped(NAMES.retryAfter, 'document', why))
  context.report(skipped(NAMES.code, 'decision', why))
  context.report(skipped(NAMES.recovered, 'document', why))
}
