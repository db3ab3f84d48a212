import * as z from 'zod'
import { fail, Failure } from './api-errors.js'
import { describeIssues } from './issues.js'
import type { Answer, ControlCall } from './routes.js'
import type { Sandbox } from './sandbox.js'

// The operations of the control API (`/__sandbox`); the route table names them.

const ok = (body: unknown): Answer => ({ status: 200, body })

export function getState({ sandbox }: ControlCall): Answer {
  return ok(sandbox.state())
}

export async function resetSandbox({ sandbox }: ControlCall): Promise<Answer> {
  await sandbox.reset()
  return ok(sandbox.state())
}

export function getScenario({ sandbox }: ControlCall): Answer {
  return ok(scenarioState(sandbox))
}

const scenarioBody = z.object({ name: z.string() })

export async function putScenario(call: ControlCall): Promise<Answer> {
  const { sandbox } = call
  const body = await readJson(call)
  if (body instanceof Failure) return body
  const parsed = scenarioBody.safeParse(body.value)
  if (!parsed.success) {
    return fail(
      'validation_failed',
      `Invalid body: name must be a string, e.g. {"name":"rate-limited"}. ${sandbox.scenarios.hint()}`,
    )
  }
  const { name } = parsed.data
  if (!sandbox.scenarios.has(name)) {
    return fail(
      'unknown_scenario',
      `${sandbox.scenarios.unknownReason(name.slice(0, 60))}. ${sandbox.scenarios.hint()}`,
    )
  }
  sandbox.useScenario(name)
  return ok(scenarioState(sandbox))
}

export function getClock({ sandbox }: ControlCall): Answer {
  return ok(sandbox.clock.state())
}

const CLOCK_USAGE =
  'Send {"advanceSeconds": 60}, {"now": "2031-01-01T00:00:00Z"}, {"freeze": true} or {"reset": true}; "now" and "freeze" may be combined.'

const clockBody = z
  .strictObject({
    advanceSeconds: z.number().optional(),
    now: z
      .string()
      .refine((text) => Number.isFinite(Date.parse(text)), {
        message: 'must be an ISO 8601 date such as "2031-01-01T00:00:00Z"',
      })
      .optional(),
    freeze: z.boolean().optional(),
    reset: z.literal(true).optional(),
  })
  .refine((body) => Object.values(body).some((value) => value !== undefined), {
    message: 'nothing to do',
  })

export async function setClock(call: ControlCall): Promise<Answer> {
  const { sandbox } = call
  const body = await readJson(call)
  if (body instanceof Failure) return body
  const parsed = clockBody.safeParse(body.value, { reportInput: true })
  if (!parsed.success) {
    return fail(
      'validation_failed',
      `Invalid body: ${describeIssues(parsed.error.issues)}. ${CLOCK_USAGE}`,
    )
  }
  const { advanceSeconds, now, freeze, reset } = parsed.data
  const { clock } = sandbox
  // All or nothing: a field the clock refuses (a date out of its range) undoes the
  // fields applied before it, so a 400 leaves the clock as it was.
  const before = clock.state()
  try {
    if (reset) clock.reset()
    if (freeze === true) clock.freeze()
    if (freeze === false) clock.unfreeze()
    if (now !== undefined) clock.set(now)
    if (advanceSeconds !== undefined) clock.advance(advanceSeconds)
  } catch (error) {
    if (before.frozen) clock.freeze(before.now)
    else {
      clock.unfreeze()
      clock.set(before.now)
    }
    throw error
  }
  return ok(clock.state())
}

const requestsQuery = z.object({
  limit: z.coerce.number().int().min(1).optional(),
})

export function listRequests({ sandbox, url }: ControlCall): Answer {
  const raw = url.searchParams.get('limit')
  const parsed = requestsQuery.safeParse({ limit: raw ?? undefined })
  if (!parsed.success || raw?.trim() === '') {
    return fail(
      'validation_failed',
      `Invalid query: limit must be a positive integer, got ${JSON.stringify(raw?.slice(0, 20))}.`,
    )
  }
  return ok({ requests: sandbox.journal.recent(parsed.data.limit) })
}

function scenarioState(sandbox: Sandbox) {
  return {
    name: sandbox.scenario.name,
    description: sandbox.scenario.description,
    startup: sandbox.startupScenario,
  }
}

async function readJson(call: ControlCall): Promise<{ value: unknown } | Failure> {
  // As request.text() decodes: UTF-8, a BOM dropped, bad bytes replaced.
  const text = new TextDecoder().decode(await call.body())
  try {
    return { value: text.trim() === '' ? null : JSON.parse(text) }
  } catch {
    return fail(
      'invalid_json',
      'The body is not valid JSON (check quotes, commas and brackets).',
    )
  }
}
