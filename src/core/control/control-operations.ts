import { fail, Failure } from '../http/api-errors.js'
import { importSession } from './carry-operations.js'
import { describeIssues } from '../common/describe-issues.js'
import { decodeParam } from '../http/request-target.js'
import type { Answer } from '../http/router.js'
import type { ControlCall } from './control-call.js'
import type { Sandbox, World } from '../world/sandbox-types.js'
import { DEFAULT_SESSION, generateSessionId, isSessionId } from '../world/sessions.js'
import * as z from 'zod/mini'
import { ISO_DATE_RULE, parseIsoDate } from '../data/clock.js'
import {
  decodeSteps,
  JsonRefusal,
  MAX_JSON_DEPTH,
  MAX_JSON_ITEMS,
  parseJsonSteps,
} from '../common/json-parse.js'
import { thousands } from '../common/text.js'
import { runInSlices } from '../common/slices.js'

// The operations of the control API (`/__sandbox`); the route table names them.

const ok = (body: unknown): Answer => ({ status: 200, body })

export function getState({ session }: ControlCall): Answer {
  return ok(session().state())
}

export async function resetSandbox({ session }: ControlCall): Promise<Answer> {
  const world = session()
  await world.reset()
  return ok(world.state())
}

export function getScenario({ sandbox, session }: ControlCall): Answer {
  return ok(scenarioState(sandbox, session()))
}

const scenarioBody = z.object({ name: z.string() })

export async function putScenario(call: ControlCall): Promise<Answer> {
  const { sandbox } = call
  const body = await readJson(call)
  if (body instanceof Failure) return body
  const parsed = scenarioBody.safeParse(body.value)
  if (!parsed.success) {
    const given = body.value as Record<string, unknown> | null
    const missing = typeof given !== 'object' || given === null || !('name' in given)
    const misnamed =
      missing && typeof given === 'object' && given !== null && 'scenario' in given
        ? ' (the field is name, not scenario)'
        : ''
    return fail(
      'validation_failed',
      `Invalid body: ${missing ? `name is required${misnamed}` : 'name must be a string'}, e.g. {"name":"rate-limited"}. ${sandbox.scenarios.hint()}`,
    )
  }
  const { name } = parsed.data
  const world = call.session()
  if (!world.findScenario(name)) {
    return fail(
      'unknown_scenario',
      `The body's name names no scenario: ${world.unknownScenario(name)}`,
    )
  }
  world.useScenario(name)
  return ok(scenarioState(sandbox, world))
}

export function getClock({ session }: ControlCall): Answer {
  return ok(session().clock.state())
}

const CLOCK_USAGE =
  'Send {"advanceSeconds": 60}, {"now": "2031-01-01T00:00:00Z"}, {"freeze": true} or {"reset": true}; fields combine, applied in the order reset, freeze, now, advanceSeconds.'

const clockBody = z
  .strictObject({
    advanceSeconds: z.optional(z.number()),
    now: z.optional(
      z.string().check(
        z.refine((text) => Number.isFinite(parseIsoDate(text)), {
          message: ISO_DATE_RULE,
        }),
      ),
    ),
    freeze: z.optional(z.boolean()),
    reset: z.optional(z.literal(true)),
  })
  .check(
    z.refine((body) => Object.values(body).some((value) => value !== undefined), {
      message: 'must set at least one field',
    }),
  )

export async function setClock(call: ControlCall): Promise<Answer> {
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
  const { clock } = call.session()
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

/**
 * A query parameter of digits, given at most once, as a number of at least `min`;
 * undefined when left out, NaN when it is something else ("0x10", "1e3", " 5", twice),
 * as `limit` of /v1 is read.
 */
function digitsQuery(url: URL, name: string, min: number): number | undefined {
  const values = url.searchParams.getAll(name)
  if (values.length === 0) return undefined
  const raw = values[0] as string
  const value = values.length === 1 && /^\d{1,15}$/.test(raw) ? Number(raw) : Number.NaN
  return value >= min ? value : Number.NaN
}

/** What a query parameter was given as, for messages. */
const givenAs = (url: URL, name: string) => {
  const values = url.searchParams.getAll(name)
  return values.length > 1
    ? `${values.length} values`
    : JSON.stringify((values[0] ?? '').slice(0, 20))
}

/**
 * `GET /__sandbox/requests?limit=N&after=ID`: the journal, newest first. `after` makes it
 * a poll (only newer entries; `lastId` says where the journal is, and drops below `after`
 * when the session's journal started again), which works in every runtime alike.
 */
export function listRequests({ session, url }: ControlCall): Answer {
  const limit = digitsQuery(url, 'limit', 1)
  if (Number.isNaN(limit)) {
    return fail(
      'validation_failed',
      `Invalid query: limit must be a positive integer, given once, got ${givenAs(url, 'limit')}.`,
    )
  }
  const after = digitsQuery(url, 'after', 0)
  if (Number.isNaN(after)) {
    return fail(
      'validation_failed',
      `Invalid query: after must be the id of a journal entry (an integer from 0), given once, got ${givenAs(url, 'after')}.`,
    )
  }
  const { journal } = session()
  return ok({
    requests: journal.recent(limit, after),
    lastId: journal.lastId,
  })
}

/**
 * `GET /__sandbox/requests/{id}`: one journal entry by its request id (the
 * `X-Sandbox-Request-Id` of its answer), from whichever session holds it.
 */
export function getRequest({ params, findRequest }: ControlCall): Answer {
  const raw = params.id ?? ''
  const id = /^[0-9]{1,15}$/.test(raw) ? Number(raw) : Number.NaN
  if (!Number.isSafeInteger(id) || id < 1) {
    return fail(
      'validation_failed',
      `Invalid path: id must be a request id (a positive integer, the X-Sandbox-Request-Id of an answer), got ${JSON.stringify(raw.slice(0, 20))}.`,
    )
  }
  const entry = findRequest(id)
  if (!entry) {
    return fail(
      'not_found',
      `No request ${id} in any journal: it was never answered by /v1, it was a control request (those are not journalled), or it has left the journal (each session keeps its most recent requests, option journalSize, and a reset empties it). List the recent ones with GET /__sandbox/requests.`,
    )
  }
  return ok(entry)
}

/**
 * `GET /__sandbox/report`: the report card of the session the request names, from every
 * /v1 request since it started or was reset (docs/report-card.md).
 */
export function getReport({ session }: ControlCall): Answer {
  return ok(session().report())
}

function scenarioState(sandbox: Sandbox, world: World) {
  return {
    name: world.scenario.name,
    description: world.scenario.description,
    startup: sandbox.startupScenario,
  }
}

const sessionBody = z.nullable(
  z.strictObject({
    id: z.optional(z.string()),
    scenario: z.optional(z.string()),
    // A session export (GET /__sandbox/export), checked by the import itself.
    from: z.optional(z.unknown()),
  }),
)

/** `POST /__sandbox/sessions`: a session (made, or the existing one) and its keys. */
export async function createSession(call: ControlCall): Promise<Answer> {
  const { sandbox } = call
  const body = await readJson(call)
  if (body instanceof Failure) return body
  const parsed = sessionBody.safeParse(body.value, { reportInput: true })
  if (!parsed.success) {
    return fail(
      'validation_failed',
      `Invalid body: ${describeIssues(parsed.error.issues)}. Send nothing, or {"id": "worker-1"} and/or {"scenario": "rate-limited"}, or {"id": "alice-bug", "from": <a session export>}.`,
    )
  }
  const { id = generateSessionId(), scenario, from } = parsed.data ?? {}
  if (from !== undefined && scenario !== undefined) {
    return fail(
      'validation_failed',
      'Invalid body: scenario and from were both sent, but an export carries its own scenario. Leave scenario out (switch it after the import with PUT /__sandbox/scenario).',
    )
  }
  if (!isSessionId(id)) {
    return fail(
      'invalid_session',
      `Invalid body: id ${JSON.stringify(id.slice(0, 70))} is not a session id: use 1 to 64 letters, digits, "-" or "_", or leave it out for a generated one.`,
    )
  }
  if (id === DEFAULT_SESSION) {
    return fail(
      'invalid_session',
      'The default session always exists: it is the sandbox without a session header. Choose another id, or leave it out for a generated one.',
    )
  }
  if (scenario !== undefined && !sandbox.scenarios.has(scenario)) {
    return fail(
      'unknown_scenario',
      `${sandbox.scenarios.unknownReason(scenario.slice(0, 60))}. ${sandbox.scenarios.hint()}`,
    )
  }
  let existed = false
  if (from !== undefined) {
    const imported = await importSession(call, id, from)
    if (imported instanceof Failure) return imported
  } else {
    existed = sandbox.sessions().some((session) => session.id === id)
    const world = sandbox.session(id)
    if (!existed && scenario !== undefined) world.useScenario(scenario)
  }
  // One key per plan: the first demo key of each plan that is not expired.
  // A Map, then own properties: plans are named by the fixtures (one may be "constructor").
  const keys = new Map<string, string>()
  for (const key of sandbox.state().keys) {
    if (!key.expired && key.scenario === undefined && !keys.has(key.plan))
      keys.set(key.plan, `${key.key}.${id}`)
  }
  return {
    status: existed ? 200 : 201,
    body: { id, keys: Object.fromEntries(keys) },
  }
}

/** `GET /__sandbox/sessions`: the live sessions besides the default one. */
export function listSessions({ sandbox }: ControlCall): Answer {
  return ok({ sessions: sandbox.sessions() })
}

/** `DELETE /__sandbox/sessions/{id}`: ends a session; its next request starts afresh. */
export function deleteSession({ sandbox, params }: ControlCall): Answer {
  const id = decodeParam('id', params.id ?? '')
  if (id instanceof Failure) return id
  if (id === DEFAULT_SESSION) {
    return fail(
      'invalid_session',
      'The default session cannot be deleted. To bring it back to the start, POST /__sandbox/reset.',
    )
  }
  if (!sandbox.endSession(id)) {
    return fail(
      'not_found',
      `No live session ${JSON.stringify(id.slice(0, 70))}. List them with GET /__sandbox/sessions; an expired session is already gone.`,
    )
  }
  return { status: 204, body: null }
}

/**
 * The JSON body of a control request, or invalid_json (validation_failed when nested
 * deeper than MAX_JSON_DEPTH). Parsed in slices: an import's body may be 16 MiB.
 */
export async function readJson(call: ControlCall): Promise<{ value: unknown } | Failure> {
  // As request.text() decodes: UTF-8, a BOM dropped, bad bytes replaced; in slices.
  const text = await runInSlices(decodeSteps(await call.body()))
  if (text.trim() === '') return { value: null }
  const value = await runInSlices(parseJsonSteps(text))
  if (!(value instanceof JsonRefusal)) return { value }
  if (value.reason === 'depth') {
    return fail(
      'validation_failed',
      `Invalid body: it nests arrays and objects more than ${MAX_JSON_DEPTH} levels deep, and no control request needs more than ten. Send the body the endpoint documents (docs/control-api.md).`,
    )
  }
  if (value.reason === 'items') {
    return fail(
      'validation_failed',
      `Invalid body: a list (or object) in it holds more than ${thousands(MAX_JSON_ITEMS)} items, more than any control request takes (the largest export an import takes has fewer pets). Send the body the endpoint documents (docs/control-api.md); an import's journal may be left out.`,
    )
  }
  return fail(
    'invalid_json',
    'The body is not valid JSON (check quotes, commas and brackets).',
  )
}
