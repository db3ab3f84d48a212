import { authenticate, peekKey } from './auth.js'
import { matchBase } from '../http/base-url.js'
import { deprecationHeaders } from './deprecation.js'
import {
  journalBody,
  journalHeaders,
  journalRateLimit,
  type JournalEntry,
} from '../coach/journal.js'
import { journalPath } from '../coach/journal-budget.js'
import { checkLimit, countWhileRoom, peekHeaders } from './api-limits.js'
import { errorReply, fail, Failure } from '../http/api-errors.js'
import { droppedReply, jsonReply, type HeaderMap, type Reply } from '../http/reply.js'
import { answerRoute, methodNotAllowed } from '../http/route-outcome.js'
import { API_ROUTES, type ApiRoute } from './routes.js'
import { createRouter, listEndpoints, type RouteMatch } from '../http/router.js'
import { delay, type ClientConnection } from '../scenarios/latency.js'
import type { Scenario } from '../scenarios/scenarios.js'
import type { SandboxWorld } from '../world/world.js'
import { targetPath } from '../http/request-target.js'
import { isoTime } from '../data/clock.js'

export const SCENARIO_HEADER = 'x-sandbox-scenario'

const routeApi = createRouter(API_ROUTES)

/** Whether the API has this path below its base (`/pets/1`), with any method. */
export function apiHasPath(rest: string): boolean {
  return routeApi('GET', rest).kind !== 'not-found'
}

/** What every answer under `/v1` starts from: where it went and its journal entry. */
interface Described {
  url: URL
  apiBase: string
  found: RouteMatch<ApiRoute>
  /** The deprecation headers, on every response of a deprecated operation. */
  extraHeaders: HeaderMap
  entry: Omit<JournalEntry, 'id' | 'status' | 'durationMs'>
}

/** Where a request under the base `apiBase` goes; `rest` is its path below the base. */
function describe(
  world: SandboxWorld,
  request: Request,
  url: URL,
  apiBase: string,
  rest: string,
  target = `${url.pathname}${url.search}`,
): Described {
  const method = request.method.toUpperCase()
  const found = routeApi(method, rest)
  const route = found.kind === 'route' ? found.route : undefined
  // Fields set one by one, in the order the journal shows them: every request makes
  // one entry, and spreads of optional parts cost more than the rest of it.
  const entry: Described['entry'] = {
    at: isoTime(world.clock.now()),
    method,
    path: journalPath(target),
    scenario: world.activeScenario().name,
  }
  if (world.sessionId !== undefined) entry.session = world.sessionId
  if (route) entry.operation = route.operationId
  if (route?.deprecated) entry.deprecated = true
  const headers = journalHeaders(request.headers)
  if (headers) entry.headers = headers
  return {
    url,
    apiBase,
    found,
    extraHeaders: route?.deprecated ? deprecationHeaders(apiBase) : {},
    entry,
  }
}

/** Reads a body once, for the resolver and then the journal. */
function readOnce(read: () => Promise<Uint8Array>): () => Promise<Uint8Array> {
  let bytes: Promise<Uint8Array> | undefined
  return () => (bytes ??= read())
}

/** A request's body, read only for methods that carry one: for the journal and the report card. */
async function bodyBytes(
  read: () => Promise<Uint8Array>,
): Promise<Uint8Array | undefined> {
  try {
    return await read()
  } catch {
    // A body the transport could no longer give (already read elsewhere): not journalled.
    return undefined
  }
}

/**
 * The scenario name a request asks for with `X-Sandbox-Scenario`, or null. An empty
 * header is no header: some clients send every configured header, set or not.
 */
function requestedScenario(request: Request): string | null {
  return request.headers.get(SCENARIO_HEADER)?.trim() || null
}

/**
 * The scenario a request runs under, strongest first: the one its `X-Sandbox-Scenario`
 * header names, its scenario key's, the world's switch. The one place this order is
 * written (answered and refused requests alike). `unknown`: the header named no
 * scenario of the world (the request is then refused, under the scenario below).
 */
function scenarioOf(
  world: SandboxWorld,
  request: Request,
  authorization: string | null,
): { scenario: Scenario; unknown?: string } {
  const requested = requestedScenario(request)
  const named = requested === null ? undefined : world.findScenario(requested)
  if (named) return { scenario: named }
  const keyed = peekKey(authorization, world.keys)?.scenario
  const scenario =
    (keyed !== undefined && world.findScenario(keyed)) || world.activeScenario()
  return requested === null ? { scenario } : { scenario, unknown: requested }
}

/** Where a request of the v1 API came in, and how its body is read. */
export interface ApiRequest {
  /** The request id (`X-Sandbox-Request-Id`), its journal entry's. */
  id: number
  request: Request
  url: URL
  /** The base path it matched (`/v1`). */
  apiBase: string
  /** Its path below the base (`/pets/1`). */
  rest: string
  /** Its Authorization, a session key's session part removed (`selectSession`). */
  authorization: string | null
  body(): Promise<Uint8Array>
  /** The client's connection, where the server has one (`HandleInit.client`). */
  client?: ClientConnection | undefined
}

/**
 * Answers a request under `/v1`. The order is the one a gateway in front of the real API
 * follows: scenario, authentication, rate limit, then routing and validation, so every
 * response, errors included, carries the rate-limit headers.
 */
export async function handleApiRequest(
  world: SandboxWorld,
  call: ApiRequest,
): Promise<Reply> {
  const started = performance.now()
  const { request } = call
  if (call.id > world.lastArrived) world.lastArrived = call.id
  call.body = readOnce(call.body)
  const described = describe(world, request, call.url, call.apiBase, call.rest)
  const { extraHeaders, entry } = described

  if (world.loading) await world.ready
  const { scenario, unknown } = scenarioOf(world, request, call.authorization)
  let reply: Reply
  if (unknown !== undefined) {
    const known = authenticate(call.authorization, world.keys, scenario).key
    const failure = fail(
      'unknown_scenario',
      `The ${SCENARIO_HEADER} header names no loaded scenario: ${world.unknownScenario(unknown)}`,
    )
    noteFailure(entry, failure)
    reply = errorReply(failure, peekHeaders(world, scenario, known), extraHeaders)
  } else {
    entry.scenario = scenario.name
    // Faults (docs/faults.md): the session and the scenario are chosen, nothing else
    // has happened. A dropped request stops here: no auth, no limit, no resolver, no
    // latency; the journal keeps what was sent and the key it named, unchecked.
    if (world.dropsNext(scenario, entry.operation)) {
      const known = peekKey(call.authorization, world.keys)
      if (known) Object.assign(entry, { key: known.key, plan: known.planName })
      entry.dropped = true
      reply = droppedReply()
    } else reply = await answer(world, call, scenario, described)
  }

  const latency = scenario.latency ?? world.latency
  if (latency !== undefined && !reply.dropped) await delay(latency, call.client)

  const durationMs = Math.round((performance.now() - started) * 100) / 100
  const rateLimit = journalRateLimit(reply.headers)
  // GET and HEAD bodies are ignored, and never read.
  const { method } = entry
  const body =
    method === 'GET' || method === 'HEAD' ? undefined : await bodyBytes(call.body)
  const recorded = entry as JournalEntry
  recorded.id = call.id
  recorded.status = reply.status
  recorded.durationMs = durationMs
  if (rateLimit) recorded.rateLimit = rateLimit
  if (body) Object.assign(recorded, journalBody(body))
  world.record(recorded, body, request)
  return reply
}

/**
 * How a request the API does not answer itself (a refused one, an override's) is
 * journalled: its entry, with the scenario it would have been answered under and the
 * key it names, and how its key stands. `authorization` is the header without a session
 * key's session part (`selectSession`), the raw header when there is none.
 */
function unanswered(
  world: SandboxWorld,
  request: Request,
  authorization: string | null,
  target?: string,
) {
  const url = new URL(request.url)
  // Routed as sent: a refused path of a deprecated operation (GET /v1/pets/%5C) still
  // carries its deprecation headers, as the document says every answer of it does.
  const sent = matchBase(
    world.bases,
    url.origin,
    targetPath(target ?? url.pathname),
    (base) => base.path,
  )
  const { extraHeaders, entry } = describe(
    world,
    request,
    url,
    sent?.base.path ?? '/v1',
    sent?.rest ?? '',
    target,
  )
  delete entry.operation
  delete entry.deprecated
  const { scenario } = scenarioOf(world, request, authorization)
  const auth = authenticate(authorization, world.keys, scenario, world.sessionId)
  entry.scenario = scenario.name
  if (auth.key) Object.assign(entry, { key: auth.key.key, plan: auth.key.planName })
  return { entry, extraHeaders, scenario, auth }
}

/** Who sent a request the API does not answer itself, and whether it counts. */
export interface Caller {
  /** The `Authorization` without a session key's session part. */
  authorization: string | null
  /**
   * Counted against the key's limit, as any request with a valid key (a target the
   * pipeline refused); not for what a server refused before the API (a body over its
   * limit, an origin or Host it does not trust), nor without a session to count in.
   */
  counted: boolean
}

/**
 * Answers a request the sandbox or its transport refused before the API read it (a
 * path or Host that is not one, a body over the server's size limit): the Error body
 * with the caller's rate-limit headers, plus a journal entry, so such a response looks
 * like every other /v1 one; a counted one counts against its key's window while it has
 * room. `target` is the path as sent, for the journal.
 */
export function answerRefusedRequest(
  world: SandboxWorld,
  request: Request,
  failure: Failure,
  target: string | undefined,
  id: number,
  caller: Caller = {
    authorization: request.headers.get('authorization'),
    counted: false,
  },
): Reply {
  const { entry, extraHeaders, scenario, auth } = unanswered(
    world,
    request,
    caller.authorization,
    target,
  )
  // Counted while its window has room. The answer stays the 400: no check reads a path
  // that is not one, so it never gets a 429, nor counts towards a ban.
  const headers = countWhileRoom(world, scenario, auth.key, caller.counted && auth.ok)
  const reply = errorReply(failure, headers, extraHeaders)
  const rateLimit = journalRateLimit(reply.headers)
  world.record({
    ...entry,
    id,
    status: failure.status,
    durationMs: 0,
    code: failure.code,
    message: failure.message,
    ...(rateLimit ? { rateLimit } : {}),
  })
  return reply
}

/**
 * Journals a request one of the user's own handlers answered: its answer is the user's,
 * so nothing is counted, but the journal shows who answered and which key it named.
 */
export function journalOverride(
  world: SandboxWorld,
  request: Request,
  status: number,
  id: number,
  authorization: string | null,
) {
  const { entry } = unanswered(world, request, authorization)
  world.record({ ...entry, id, status, durationMs: 0, override: true })
}

async function answer(
  world: SandboxWorld,
  call: ApiRequest,
  scenario: Scenario,
  { url, apiBase, found, extraHeaders, entry }: Described,
): Promise<Reply> {
  const { request } = call
  const now = world.clock.now()
  const auth = authenticate(call.authorization, world.keys, scenario, world.sessionId)
  if (found.kind === 'method-not-allowed') {
    // Before authentication, as a gateway routes before it asks for a key: `TRACE
    // /v1/pets` is 405 with Allow whatever the key (it was 401 without one). A valid
    // key's request counts while its window has room, as a path that is not one does.
    const failure = methodNotAllowed(request.method, url.pathname, found.allow)
    noteFailure(entry, failure)
    if (auth.key) Object.assign(entry, { key: auth.key.key, plan: auth.key.planName })
    const headers = countWhileRoom(world, scenario, auth.key, auth.ok)
    return errorReply(failure, headers, extraHeaders)
  }
  if (!auth.ok) {
    const known = auth.key
    const failure = fail(auth.code, auth.message)
    noteFailure(entry, failure)
    if (known) Object.assign(entry, { key: known.key, plan: known.planName })
    return errorReply(failure, peekHeaders(world, scenario, known), extraHeaders)
  }

  const { key } = auth
  entry.key = key.key
  entry.plan = key.planName
  const decision = checkLimit(world, scenario, key, now)
  if (!decision.allowed) {
    if (decision.ignoredRetryAfter) entry.ignoredRetryAfter = true
    noteFailure(entry, decision.failure)
    return errorReply(decision.failure, decision.headers, extraHeaders)
  }

  const headers = decision.headers
  Object.assign(headers, extraHeaders)
  const outcome = await answerRoute(
    found,
    { method: request.method, path: url.pathname, rest: call.rest },
    {
      what: 'endpoint',
      has: () =>
        `The v1 API has ${listEndpoints(API_ROUTES, apiBase, (route) => route.modelled)}`,
      hasPath: apiHasPath,
    },
    (route, params) =>
      route.resolve({
        world,
        request,
        url,
        params,
        scenario,
        key,
        apiBase,
        dataset: () => Promise.resolve(world.dataset(scenario)),
        body: call.body,
      }),
  )
  if (outcome instanceof Failure) {
    noteFailure(entry, outcome)
    return errorReply(outcome, headers)
  }
  if (outcome.headers) Object.assign(headers, outcome.headers)
  return jsonReply(outcome.status, outcome.body, headers)
}

/** The journal keeps a failure's code and message, for the inspector's "what to do". */
function noteFailure(entry: Described['entry'], failure: Failure) {
  entry.code = failure.code
  entry.message = failure.message
}
