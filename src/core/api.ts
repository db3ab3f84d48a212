import { authenticate, type KnownKey } from './auth.js'
import { matchBase, type ApiBase } from './base-url.js'
import type { Clock } from './clock.js'
import type { Dataset } from './dataset.js'
import { deprecationHeaders, GET_PET_SUNSET } from './deprecation.js'
import type { Journal, JournalEntry } from './journal.js'
import type { Plan } from './fixtures.js'
import { DEFAULT_BAN, type RateLimiter, type RateLimitPolicy } from './rate-limit.js'
import {
  errorReply,
  jsonReply,
  toResponse,
  type ApiErrorCode,
  type HeaderMap,
  type Reply,
} from './responses.js'
import { readRequestBytes } from './request-body.js'
import type { Latency, Operation, Scenario, ScenarioRegistry } from './scenarios.js'
import { truncate } from './issues.js'
import { StoreWriteError } from './store.js'
import {
  isJsonMediaType,
  validateListQuery,
  validateNewPet,
  validatePetId,
} from './validation.js'

const UTF8 = new TextDecoder('utf-8', { fatal: true })

/** What the API pipeline needs from a sandbox. */
export interface ApiContext {
  bases: ApiBase[]
  clock: Clock
  keys: Map<string, KnownKey>
  /** The plan whose window unauthenticated requests are shown (Free, by default). */
  anonymousPlan: { name: string; plan: Plan }
  registry: ScenarioRegistry
  activeScenario(): Scenario
  dataset(scenario: Scenario): Dataset | Promise<Dataset>
  limiter: RateLimiter
  journal: Journal
  latency: Latency | undefined
  /** Resolves once seeding or a reset is done. */
  ready(): Promise<void>
}

export const SCENARIO_HEADER = 'x-sandbox-scenario'

const ENDPOINTS = 'GET /v1/pets, POST /v1/pets and GET /v1/pets/{petId}'

type Route =
  | { kind: 'operation'; operation: Operation; petId?: string }
  | { kind: 'method-not-allowed'; allow: string }
  | { kind: 'not-implemented' }
  | { kind: 'not-found'; hint: string }

/** Finds the endpoint of a method and path below the base (`/pets/1`). */
export function route(method: string, rest: string): Route {
  if (rest === '/pets') {
    if (method === 'GET') return { kind: 'operation', operation: 'listPets' }
    if (method === 'POST') return { kind: 'operation', operation: 'createPet' }
    return { kind: 'method-not-allowed', allow: 'GET, POST' }
  }
  const item = /^\/pets\/([^/]+)$/.exec(rest)
  if (item) {
    if (method === 'GET')
      return { kind: 'operation', operation: 'getPet', petId: item[1] as string }
    return { kind: 'method-not-allowed', allow: 'GET' }
  }
  if (rest === '/store/orders') {
    if (method === 'GET') return { kind: 'not-implemented' }
    return { kind: 'method-not-allowed', allow: 'GET' }
  }
  const hint =
    rest.endsWith('/') && rest.length > 1
      ? ` Did you mean ${rest.replace(/\/+$/, '')} (no trailing slash)?`
      : ''
  return { kind: 'not-found', hint }
}

/** What every answer under `/v1` starts from: where it went and its journal entry. */
interface Described {
  url: URL
  apiBase: string
  found: Route
  /** The deprecation headers, on every response of getPet. */
  extraHeaders: HeaderMap
  entry: Omit<JournalEntry, 'id' | 'status' | 'durationMs'>
}

function describe(ctx: ApiContext, request: Request): Described {
  const url = new URL(request.url)
  const matched = matchBase(ctx.bases, url, (base) => base.path)
  const apiBase = matched ? matched.base.path : '/v1'
  const method = request.method.toUpperCase()
  const found = route(method, matched ? matched.rest : url.pathname)
  const operation = found.kind === 'operation' ? found.operation : undefined
  return {
    url,
    apiBase,
    found,
    extraHeaders: operation === 'getPet' ? deprecationHeaders(apiBase) : {},
    entry: {
      at: new Date(ctx.clock.now()).toISOString(),
      method,
      path: `${url.pathname}${url.search}`,
      scenario: ctx.activeScenario().name,
      ...(operation ? { operation } : {}),
      ...(operation === 'getPet' ? { deprecated: true as const } : {}),
    },
  }
}

/**
 * The scenario name a request asks for with `X-Sandbox-Scenario`, or null. An empty
 * header is no header: some clients send every configured header, set or not.
 */
function requestedScenario(request: Request): string | null {
  return request.headers.get(SCENARIO_HEADER)?.trim() || null
}

/** The rate-limit headers of a request that is not counted: its key's, or the Free plan's. */
function peekHeaders(ctx: ApiContext, scenario: Scenario, known: KnownKey | undefined) {
  const plan = known ? { name: known.planName, plan: known.plan } : ctx.anonymousPlan
  const policy = policyFor(ctx, scenario, plan.plan, plan.name)
  return ctx.limiter.peek(known?.key, policy, ctx.clock.now())
}

/**
 * Answers a request under `/v1`. The order is the one a gateway in front of the real API
 * follows: scenario, authentication, rate limit, then routing and validation, so every
 * response, errors included, carries the rate-limit headers.
 */
export async function handleApiRequest(
  ctx: ApiContext,
  request: Request,
): Promise<Response> {
  const started = performance.now()
  const described = describe(ctx, request)
  const { extraHeaders, entry } = described

  await ctx.ready()
  let scenario = ctx.activeScenario()
  const requested = requestedScenario(request)
  let reply: Reply
  if (requested !== null && !ctx.registry.has(requested)) {
    const known = authenticate(
      request.headers.get('authorization'),
      ctx.keys,
      scenario,
    ).key
    entry.code = 'unknown_scenario'
    reply = errorReply(
      400,
      'unknown_scenario',
      `The ${SCENARIO_HEADER} header names no loaded scenario: ${ctx.registry.unknownReason(requested.slice(0, 60))}. ${ctx.registry.hint()}`,
      { ...peekHeaders(ctx, scenario, known), ...extraHeaders },
    )
  } else {
    if (requested !== null) scenario = ctx.registry.get(requested)
    entry.scenario = scenario.name
    reply = await answer(ctx, request, scenario, described)
  }

  const latency = scenario.latency ?? ctx.latency
  if (latency !== undefined) await sleep(pickLatency(latency))

  ctx.journal.add({
    ...entry,
    status: reply.status,
    durationMs: Math.round((performance.now() - started) * 100) / 100,
  })
  return toResponse(reply, request)
}

/**
 * Answers a request the transport refused before the API could read it (a body over the
 * server's size limit): the Error body with the caller's rate-limit headers, peeked and
 * not counted, plus a journal entry, so such a response looks like every other /v1 one.
 */
export function answerRefusedRequest(
  ctx: ApiContext,
  request: Request,
  status: number,
  code: ApiErrorCode,
  message: string,
): Response {
  const { extraHeaders, entry } = describe(ctx, request)
  const requested = requestedScenario(request)
  const scenario =
    requested && ctx.registry.has(requested)
      ? ctx.registry.get(requested)
      : ctx.activeScenario()
  const known = authenticate(request.headers.get('authorization'), ctx.keys, scenario).key
  ctx.journal.add({
    ...entry,
    scenario: scenario.name,
    status,
    durationMs: 0,
    code,
    ...(known ? { key: known.key, plan: known.planName } : {}),
  })
  const reply = errorReply(status, code, message, {
    ...peekHeaders(ctx, scenario, known),
    ...extraHeaders,
  })
  return toResponse(reply, request)
}

async function answer(
  ctx: ApiContext,
  request: Request,
  scenario: Scenario,
  { url, apiBase, found, extraHeaders, entry }: Described,
): Promise<Reply> {
  const now = ctx.clock.now()
  const auth = authenticate(request.headers.get('authorization'), ctx.keys, scenario)
  if (!auth.ok) {
    const known = auth.key
    entry.code = auth.code
    if (known) Object.assign(entry, { key: known.key, plan: known.planName })
    const headers = { ...peekHeaders(ctx, scenario, known), ...extraHeaders }
    return errorReply(401, auth.code, auth.message, headers)
  }

  const { key } = auth
  entry.key = key.key
  entry.plan = key.planName
  const policy = policyFor(ctx, scenario, key.plan, key.planName)
  const decision = ctx.limiter.check(key.key, policy, now)
  if (!decision.allowed) {
    entry.code = decision.code
    if (decision.ignoredRetryAfter) entry.ignoredRetryAfter = true
    const headers = { ...decision.headers, ...extraHeaders }
    const message =
      decision.code === 'api_key_temporarily_banned'
        ? `This API key is temporarily banned for sending requests while a 429 asked it to wait. Wait ${decision.retryAfterSeconds} s (Retry-After) and back off exponentially after every 429.`
        : `Rate limit exceeded: ${limitHolder(scenario, key)} allows ${decision.window === 'day' ? `${policy.limits.perDay} requests a day` : `${policy.limits.perMinute} requests a minute`}. Retry after ${decision.retryAfterSeconds} s (Retry-After); requests sent before then count towards a temporary ban of the key (after ${policy.ban.afterIgnoredRetries}).`
    return errorReply(429, decision.code, message, headers)
  }

  const headers = { ...decision.headers, ...extraHeaders }
  switch (found.kind) {
    case 'not-found':
      entry.code = 'not_found'
      return errorReply(
        404,
        'not_found',
        `No endpoint at ${request.method.toUpperCase()} ${truncate(url.pathname, 100)}.${found.hint} The v1 API has ${ENDPOINTS}.`,
        headers,
      )
    case 'method-not-allowed':
      entry.code = 'method_not_allowed'
      return errorReply(
        405,
        'method_not_allowed',
        `${request.method.toUpperCase()} is not allowed on ${truncate(url.pathname, 100)}; allowed: ${found.allow}.`,
        { ...headers, allow: found.allow },
      )
    case 'not-implemented':
      entry.code = 'not_implemented'
      return errorReply(
        501,
        'not_implemented',
        `GET ${apiBase}/store/orders is mentioned by the API but its shape is not published, so the sandbox does not model it. Use ${ENDPOINTS}.`,
        headers,
      )
    case 'operation':
      break
  }

  const { operation } = found
  const dataset = await ctx.dataset(scenario)
  const fail = (status: number, code: string, message: string) => {
    entry.code = code
    return errorReply(status, code, message, headers)
  }

  switch (operation) {
    case 'listPets': {
      const query = validateListQuery(url.searchParams)
      if (!query.ok) return fail(400, 'validation_failed', query.message)
      const forced = forcedError(scenario, operation)
      if (forced) return fail(forced.status, forced.code, forced.message)
      return jsonReply(200, dataset.list(query.value), headers)
    }
    case 'createPet': {
      const contentType = request.headers.get('content-type')
      const bytes = await readRequestBytes(request)
      if (bytes.length > 0 && !isJsonMediaType(contentType)) {
        return fail(
          415,
          'unsupported_media_type',
          `The body must be JSON: send "Content-Type: application/json"${contentType ? `, got "${contentType.slice(0, 60)}"` : ' (the header is missing)'}.`,
        )
      }
      let text: string
      try {
        // JSON is UTF-8 (RFC 8259): undecodable bytes would be stored as U+FFFD.
        text = UTF8.decode(bytes)
      } catch {
        return fail(
          400,
          'invalid_json',
          'The body is not valid UTF-8, so it is not valid JSON. Send the JSON text encoded as UTF-8, e.g. {"name":"Rex","categoryId":1}.',
        )
      }
      if (text.trim().length === 0) {
        return fail(
          400,
          'validation_failed',
          'Invalid body: a NewPet is required, e.g. {"name":"Rex","categoryId":1,"status":"available"}.',
        )
      }
      let body: unknown
      try {
        body = JSON.parse(text)
      } catch {
        // Our own words, not the engine's JSON.parse message, which differs between
        // Node and browsers: every runtime answers alike.
        return fail(
          400,
          'invalid_json',
          'The body is not valid JSON (check quotes, commas and brackets). Send a JSON object such as {"name":"Rex","categoryId":1}.',
        )
      }
      const pet = validateNewPet(body)
      if (!pet.ok) return fail(400, 'validation_failed', pet.message)
      const forced = forcedError(scenario, operation)
      if (forced) return fail(forced.status, forced.code, forced.message)
      try {
        return jsonReply(201, await dataset.create(pet.value), headers)
      } catch (error) {
        if (!(error instanceof StoreWriteError)) throw error
        return fail(507, 'storage_failed', error.message)
      }
    }
    case 'getPet': {
      // Removed means removed, whatever the id: the sunset comes before validation.
      if (ctx.clock.now() >= GET_PET_SUNSET) {
        return fail(
          410,
          'endpoint_removed',
          `GET ${apiBase}/pets/{petId} was removed on 5 December 2030 (see the Sunset header). Use GET ${apiBase}/pets with the status filter instead.`,
        )
      }
      const id = validatePetId(found.petId as string)
      if (!id.ok) return fail(400, 'validation_failed', id.message)
      const forced = forcedError(scenario, operation)
      if (forced) return fail(forced.status, forced.code, forced.message)
      const pet = dataset.get(id.value)
      if (!pet) {
        return fail(
          404,
          'not_found',
          `No pet with id ${id.value}. List the existing ones with GET ${apiBase}/pets.`,
        )
      }
      return jsonReply(200, pet, headers)
    }
  }
}

/** Who sets the limit a 429 names: the key's plan, or the scenario that overrides it. */
function limitHolder(scenario: Scenario, key: KnownKey) {
  if (scenario.rateLimits?.plans?.[key.planName]) {
    return `the scenario "${scenario.name}" (for the ${key.plan.label ?? key.planName} plan)`
  }
  return `the ${key.plan.label ?? key.planName} plan`
}

function policyFor(
  ctx: ApiContext,
  scenario: Scenario,
  plan: Plan,
  planName: string,
): RateLimitPolicy {
  const override = scenario.rateLimits?.plans?.[planName]
  return {
    limits: override ?? plan,
    ban: scenario.rateLimits?.ban ?? DEFAULT_BAN,
    exhausted: scenario.rateLimits?.exhausted ?? false,
  }
}

function forcedError(scenario: Scenario, operation: Operation) {
  const forced = scenario.errors?.[operation] ?? scenario.errors?.['*']
  if (!forced) return undefined
  return {
    status: forced.status,
    code: forced.code,
    message:
      forced.message ??
      (forced.code === 'not_found' && operation === 'getPet'
        ? `No pet with that id (scenario "${scenario.name}" answers 404 for every id). Switch back with PUT /__sandbox/scenario {"name":"default"}, or drop the X-Sandbox-Scenario header if you sent one.`
        : `Forced by the scenario "${scenario.name}" (${forced.code}).`),
  }
}

function pickLatency(latency: Latency): number {
  if (typeof latency === 'number') return latency
  return latency.minMs + Math.random() * (latency.maxMs - latency.minMs)
}

function sleep(ms: number) {
  return ms <= 0 ? Promise.resolve() : new Promise((resolve) => setTimeout(resolve, ms))
}
