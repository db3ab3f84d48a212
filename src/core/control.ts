import { matchBase } from './base-url.js'
import { SandboxError } from './errors.js'
import { readRequestBytes } from './request-body.js'
import { errorReply, jsonReply, toResponse, type Reply } from './responses.js'
import type { Sandbox } from './sandbox.js'
import { StoreWriteError } from './store.js'

export const CONTROL_PATH = '/__sandbox'

const CONTROL_ENDPOINTS =
  'GET /__sandbox, POST /__sandbox/reset, GET|PUT /__sandbox/scenario, GET|POST /__sandbox/clock, GET /__sandbox/requests'

/**
 * The control API (`/__sandbox`), served by every runtime through the same handlers.
 * Its errors use the API's Error body too; it never reads files.
 */
export async function handleControlRequest(
  sandbox: Sandbox,
  request: Request,
): Promise<Response> {
  return toResponse(await controlReply(sandbox, request), request)
}

async function controlReply(sandbox: Sandbox, request: Request): Promise<Reply> {
  const url = new URL(request.url)
  const matched = matchBase(sandbox.bases, url, () => CONTROL_PATH)
  const rest = matched ? matched.rest : ''
  const method = request.method.toUpperCase()
  const notAllowed = (allow: string) =>
    errorReply(
      405,
      'method_not_allowed',
      `${method} is not allowed on ${url.pathname.slice(0, 100)}; allowed: ${allow}.`,
      { allow },
    )

  await sandbox.ready
  try {
    switch (rest) {
      case '':
      case '/':
        if (method !== 'GET') return notAllowed('GET')
        return jsonReply(200, sandbox.state())
      case '/reset':
        if (method !== 'POST') return notAllowed('POST')
        await sandbox.reset()
        return jsonReply(200, sandbox.state())
      case '/scenario': {
        if (method === 'GET') return jsonReply(200, scenarioState(sandbox))
        if (method !== 'PUT') return notAllowed('GET, PUT')
        const body = await readJson(request)
        if (!body.ok) return body.reply
        const name = (body.value as { name?: unknown } | null)?.name
        if (typeof name !== 'string') {
          return errorReply(
            400,
            'validation_failed',
            `Invalid body: name must be a string, e.g. {"name":"rate-limited"}. ${sandbox.scenarios.hint()}`,
            {},
          )
        }
        if (!sandbox.scenarios.has(name)) {
          return errorReply(
            400,
            'unknown_scenario',
            `${sandbox.scenarios.unknownReason(name.slice(0, 60))}. ${sandbox.scenarios.hint()}`,
            {},
          )
        }
        sandbox.useScenario(name)
        return jsonReply(200, scenarioState(sandbox))
      }
      case '/clock': {
        if (method === 'GET') return jsonReply(200, sandbox.clock.state())
        if (method !== 'POST') return notAllowed('GET, POST')
        const body = await readJson(request)
        if (!body.ok) return body.reply
        const problem = applyClock(sandbox, body.value)
        if (problem) return errorReply(400, 'validation_failed', problem, {})
        return jsonReply(200, sandbox.clock.state())
      }
      case '/requests': {
        if (method !== 'GET') return notAllowed('GET')
        const raw = url.searchParams.get('limit')
        const limit = raw === null ? undefined : Number(raw)
        if (limit !== undefined && !(Number.isInteger(limit) && limit >= 1)) {
          return errorReply(
            400,
            'validation_failed',
            `Invalid query: limit must be a positive integer, got ${JSON.stringify(raw?.slice(0, 20))}.`,
            {},
          )
        }
        return jsonReply(200, { requests: sandbox.journal.recent(limit) })
      }
      default:
        return errorReply(
          404,
          'not_found',
          `No control endpoint at ${url.pathname}. The control API has ${CONTROL_ENDPOINTS}.`,
          {},
        )
    }
  } catch (error) {
    if (error instanceof StoreWriteError)
      return errorReply(507, 'storage_failed', error.message, {})
    if (error instanceof SandboxError)
      return errorReply(400, 'validation_failed', error.message, {})
    throw error
  }
}

function scenarioState(sandbox: Sandbox) {
  return {
    name: sandbox.scenario.name,
    description: sandbox.scenario.description,
    startup: sandbox.startupScenario,
  }
}

function applyClock(sandbox: Sandbox, body: unknown): string | undefined {
  const usage =
    'Send {"advanceSeconds": 60}, {"now": "2031-01-01T00:00:00Z"}, {"freeze": true} or {"reset": true}; "now" and "freeze" may be combined.'
  if (typeof body !== 'object' || body === null || Array.isArray(body))
    return `Invalid body. ${usage}`
  const { advanceSeconds, now, freeze, reset, ...unknown } = body as Record<
    string,
    unknown
  >
  const extra = Object.keys(unknown)
  if (extra.length > 0)
    return `Invalid body: unknown field(s) ${extra.join(', ')}. ${usage}`
  if (
    advanceSeconds === undefined &&
    now === undefined &&
    freeze === undefined &&
    reset === undefined
  ) {
    return `Invalid body: nothing to do. ${usage}`
  }
  if (
    advanceSeconds !== undefined &&
    (typeof advanceSeconds !== 'number' || !Number.isFinite(advanceSeconds))
  ) {
    return `Invalid body: advanceSeconds must be a number of seconds, e.g. 60. ${usage}`
  }
  if (
    now !== undefined &&
    (typeof now !== 'string' || !Number.isFinite(Date.parse(now)))
  ) {
    return `Invalid body: now must be an ISO 8601 date such as "2031-01-01T00:00:00Z". ${usage}`
  }
  if (freeze !== undefined && typeof freeze !== 'boolean')
    return `Invalid body: freeze must be true or false. ${usage}`
  if (reset !== undefined && reset !== true)
    return `Invalid body: reset must be true. ${usage}`
  // All or nothing: a field the clock refuses (a date out of its range) undoes the
  // fields applied before it, so a 400 leaves the clock as it was.
  const before = sandbox.clock.state()
  try {
    if (reset) sandbox.clock.reset()
    if (freeze === true) sandbox.clock.freeze()
    if (freeze === false) sandbox.clock.unfreeze()
    if (typeof now === 'string') sandbox.clock.set(now)
    if (typeof advanceSeconds === 'number') sandbox.clock.advance(advanceSeconds)
  } catch (error) {
    if (before.frozen) sandbox.clock.freeze(before.now)
    else {
      sandbox.clock.unfreeze()
      sandbox.clock.set(before.now)
    }
    throw error
  }
  return undefined
}

async function readJson(
  request: Request,
): Promise<{ ok: true; value: unknown } | { ok: false; reply: Reply }> {
  // As request.text() decodes: UTF-8, a BOM dropped, bad bytes replaced.
  const text = new TextDecoder().decode(await readRequestBytes(request))
  try {
    return { ok: true, value: text.trim() === '' ? null : JSON.parse(text) }
  } catch {
    return {
      ok: false,
      reply: errorReply(
        400,
        'invalid_json',
        'The body is not valid JSON (check quotes, commas and brackets).',
        {},
      ),
    }
  }
}
