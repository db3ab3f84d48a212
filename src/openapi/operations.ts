/** A piece of the OpenAPI document, as plain JSON data. */
export type Json = Record<string, unknown>

/** What the document says about one operation beyond the route table's entry. */
export interface OperationDoc {
  description: string
  tags: string[]
  parameters?: Json[]
  requestBody?: Json
  responses: Record<string, Json>
}

const ref = (kind: string, name: string) => ({ $ref: `#/components/${kind}/${name}` })
const json = (schema: string) => ({
  'application/json': { schema: ref('schemas', schema) },
})

const rateLimitHeaders = {
  'X-RateLimit-Limit': ref('headers', 'X-RateLimit-Limit'),
  'X-RateLimit-Remaining': ref('headers', 'X-RateLimit-Remaining'),
  'X-RateLimit-Reset': ref('headers', 'X-RateLimit-Reset'),
}
const deprecationHeaders = {
  Deprecation: ref('headers', 'Deprecation'),
  Sunset: ref('headers', 'Sunset'),
  Link: ref('headers', 'Link'),
}
const retryAfter = { 'Retry-After': ref('headers', 'Retry-After') }

/** A response of the API: rate-limit headers (and any others given) and a body. */
const apiResponse = (description: string, schema = 'Error', headers: Json = {}) => ({
  description,
  headers: { ...rateLimitHeaders, ...headers },
  content: json(schema),
})
const controlResponse = (description: string, schema = 'Error') => ({
  description,
  content: json(schema),
})

const UNKNOWN_SCENARIO = 'Also 400 unknown_scenario for an unknown X-Sandbox-Scenario.'
const FORCED =
  'An error a scenario forces (e.g. 503 service_unavailable); never in the default scenario.'

/** A control body of another type than application/json, +json types included. */
const NOT_JSON = controlResponse(
  'The body is not application/json, +json types included (unsupported_media_type).',
)

/** The 404 and 405 every path may answer: a mistyped path, or a method it does not take. */
const pathErrors = (scope: 'api' | 'control') => ({
  '404': ref('responses', scope === 'api' ? 'NotFound' : 'ControlNotFound'),
  '405': ref(
    'responses',
    scope === 'api' ? 'MethodNotAllowed' : 'ControlMethodNotAllowed',
  ),
})

const scenarioHeader = ref('parameters', 'X-Sandbox-Scenario')
const sessionHeader = ref('parameters', 'X-Sandbox-Session')

/** The reusable responses the operations refer to. */
export const COMPONENT_RESPONSES: Record<string, Json> = {
  Unauthorized: apiResponse(
    'API key missing (missing_api_key), not Bearer (malformed_authorization), unknown (invalid_api_key) or expired (expired_api_key).',
  ),
  TooManyRequests: apiResponse(
    'Over the limit (rate_limit_exceeded) or temporarily banned (api_key_temporarily_banned). Wait Retry-After seconds; back off exponentially.',
    'Error',
    retryAfter,
  ),
  NotFound: apiResponse(
    'Nothing at this path under the base address (not_found), e.g. a mistyped path.',
  ),
  MethodNotAllowed: apiResponse(
    'The path does not take the method sent (method_not_allowed); Allow lists the methods it takes.',
    'Error',
    { Allow: ref('headers', 'Allow') },
  ),
  ScenarioError: apiResponse(FORCED),
  ControlNotFound: controlResponse(
    'No control endpoint at this path (not_found); the message lists them.',
  ),
  ControlMethodNotAllowed: {
    ...controlResponse(
      'The control endpoint does not take the method sent (method_not_allowed); Allow lists the methods it takes.',
    ),
    headers: { Allow: ref('headers', 'Allow') },
  },
}

/** Every response of getPet carries the deprecation headers. */
const getPetResponse = (description: string, schema = 'Error', headers: Json = {}) =>
  apiResponse(description, schema, { ...deprecationHeaders, ...headers })

/** The documentation of every operation, by operationId. */
export const OPERATION_DOCS: Record<string, OperationDoc> = {
  listPets: {
    tags: ['Pets'],
    description:
      'The animals, ordered by id ascending. The API describes the list as paginated but publishes no page or cursor parameter, so `limit` is the only control.',
    parameters: [
      {
        name: 'limit',
        in: 'query',
        required: false,
        description: 'Maximum number of animals returned.',
        schema: { type: 'integer', minimum: 1, maximum: 100, default: 20 },
      },
      {
        name: 'status',
        in: 'query',
        required: false,
        description: 'Restricts the result to animals with this status.',
        schema: ref('schemas', 'PetStatus'),
      },
      scenarioHeader,
      sessionHeader,
    ],
    responses: {
      '200': apiResponse('The animals, ordered by id ascending (a bare array).', 'Pets'),
      '400': apiResponse(
        `Invalid query value, e.g. limit outside 1..100 or an unknown status (validation_failed); a malformed percent-escape in the query (invalid_path). ${UNKNOWN_SCENARIO}`,
      ),
      '401': ref('responses', 'Unauthorized'),
      ...pathErrors('api'),
      '429': ref('responses', 'TooManyRequests'),
      default: ref('responses', 'ScenarioError'),
    },
  },
  createPet: {
    tags: ['Pets'],
    description:
      'Adds an animal. Unknown fields are ignored and never stored; a status not supplied stays absent.',
    parameters: [scenarioHeader, sessionHeader],
    requestBody: { required: true, content: json('NewPet') },
    responses: {
      '201': apiResponse('The created animal, with its new id.', 'Pet'),
      '400': apiResponse(
        `Body missing required fields or containing invalid values (validation_failed), or not JSON (invalid_json). ${UNKNOWN_SCENARIO}`,
      ),
      '401': ref('responses', 'Unauthorized'),
      ...pathErrors('api'),
      '413': apiResponse("Body over the standalone server's limit (payload_too_large)."),
      '415': apiResponse(
        'Body is not application/json, +json types included (unsupported_media_type).',
      ),
      '429': ref('responses', 'TooManyRequests'),
      default: ref('responses', 'ScenarioError'),
    },
  },
  getPet: {
    tags: ['Pets'],
    description:
      'Deprecated: removed on 5 December 2030. The replacement is GET /pets with the status filter. Every response carries Deprecation, Sunset and a Link to the replacement; after the sunset the sandbox answers 410 endpoint_removed.',
    parameters: [
      {
        name: 'petId',
        in: 'path',
        required: true,
        description: 'Identifier of the animal.',
        schema: { type: 'integer', format: 'int64' },
      },
      scenarioHeader,
      sessionHeader,
    ],
    responses: {
      '200': getPetResponse('The animal.', 'Pet'),
      '400': getPetResponse(
        `petId is not an integer, or past 2^53 - 1 (validation_failed); or, refused before routing, it holds an encoded slash, dot or backslash or a malformed percent-escape (invalid_path), with the deprecation headers as every answer of getPet. ${UNKNOWN_SCENARIO}`,
      ),
      '401': getPetResponse(
        'API key missing (missing_api_key), not Bearer (malformed_authorization), unknown (invalid_api_key) or expired (expired_api_key).',
      ),
      '404': getPetResponse('No animal with this id (not_found).'),
      '405': ref('responses', 'MethodNotAllowed'),
      '410': getPetResponse(
        'Removed after the sunset date, 5 December 2030 (endpoint_removed); use GET /pets.',
      ),
      '429': getPetResponse(
        'Over the limit (rate_limit_exceeded) or temporarily banned (api_key_temporarily_banned). Wait Retry-After seconds; back off exponentially.',
        'Error',
        retryAfter,
      ),
      default: getPetResponse(FORCED),
    },
  },
  listOrders: {
    tags: ['Store'],
    description:
      'The interface mentions this endpoint without its payloads or responses, so the sandbox does not model it: it answers 501 not_implemented. No success response is documented until the API publishes one.',
    parameters: [scenarioHeader, sessionHeader],
    responses: {
      '400': apiResponse(`Invalid value. ${UNKNOWN_SCENARIO}`),
      '401': ref('responses', 'Unauthorized'),
      ...pathErrors('api'),
      '429': ref('responses', 'TooManyRequests'),
      '501': apiResponse('Not modelled by the sandbox (not_implemented).'),
    },
  },
  getSandboxState: {
    tags: ['Sandbox'],
    description: 'Scenario, seed, counts, demo keys, clock and base addresses.',
    responses: {
      '200': controlResponse('The state.', 'SandboxState'),
      ...pathErrors('control'),
    },
  },
  resetSandbox: {
    tags: ['Sandbox'],
    description:
      'Back to the start: seeded data, fresh rate-limit windows and bans, the clock, the startup scenario, an empty journal.',
    responses: {
      '200': controlResponse('The state after the reset.', 'SandboxState'),
      '415': NOT_JSON,
      ...pathErrors('control'),
    },
  },
  getScenario: {
    tags: ['Sandbox'],
    description: 'The active scenario and the one the sandbox started with.',
    responses: {
      '200': controlResponse('The active scenario.', 'ScenarioState'),
      ...pathErrors('control'),
    },
  },
  useScenario: {
    tags: ['Sandbox'],
    description:
      'Switches the scenario of the sandbox; only names of loaded scenarios, never a path.',
    requestBody: { required: true, content: json('ScenarioSwitch') },
    responses: {
      '200': controlResponse('The active scenario.', 'ScenarioState'),
      '400': controlResponse(
        'No loaded scenario has this name (unknown_scenario), the body is not JSON (invalid_json), or name is not a string (validation_failed).',
      ),
      '415': NOT_JSON,
      ...pathErrors('control'),
    },
  },
  getClock: {
    tags: ['Sandbox'],
    description: 'The sandbox time that rate-limit windows, bans and the sunset read.',
    responses: {
      '200': controlResponse('The clock.', 'ClockState'),
      ...pathErrors('control'),
    },
  },
  setClock: {
    tags: ['Sandbox'],
    description:
      'Sets, advances, freezes or resets the clock. All or none: a refused field (a date outside 1970 to 9999) leaves the clock as it was.',
    requestBody: { required: true, content: json('ClockChange') },
    responses: {
      '200': controlResponse('The clock.', 'ClockState'),
      '400': controlResponse(
        'The body is not JSON (invalid_json), or a field is wrong or out of range (validation_failed).',
      ),
      '415': NOT_JSON,
      ...pathErrors('control'),
    },
  },
  exportHar: {
    tags: ['Sandbox'],
    description:
      "The session's journal (X-Sandbox-Session, or a session key as the bearer token) as HAR 1.2, which browser dev tools import: URLs on the origin of this request, the request headers and bodies the journal kept, each answer's status, rate-limit headers and, for an error, its Error body. The log's comment says when the journal had dropped requests or cut bodies.",
    parameters: [sessionHeader],
    responses: {
      '200': controlResponse('The journal as HAR.', 'Har'),
      ...pathErrors('control'),
    },
  },
  exportSession: {
    tags: ['Sandbox'],
    description:
      'The session (X-Sandbox-Session, or a session key as the bearer token) as a petstore-sandbox/session@1 export: its pets, scenario and the scenarios defined at run time, clock, and journal. POST it to /__sandbox/sessions as "from" (here or on another sandbox) to make a session like it.',
    parameters: [sessionHeader],
    responses: {
      '200': controlResponse('The export.', 'SessionExport'),
      ...pathErrors('control'),
    },
  },
  listSessions: {
    tags: ['Sandbox'],
    description:
      'The live sessions besides the default one, least recently used first. Sessions give isolation, not privacy: whoever reaches the server can name any session.',
    responses: {
      '200': controlResponse('The sessions.', 'SessionList'),
      ...pathErrors('control'),
    },
  },
  createSession: {
    tags: ['Sandbox'],
    description:
      'Starts a session (its own pets, limits, clock, scenario switch and journal), or answers the existing one with 200: retries are safe. Its keys work without the X-Sandbox-Session header. With "from" (an export of GET /__sandbox/export, bodies up to 16 MiB) the session is made from it: the same pets, scenario and clock, a fresh journal, rate-limit windows and bans.',
    requestBody: { required: false, content: json('SessionRequest') },
    responses: {
      '200': controlResponse('The session already existed.', 'SessionKeys'),
      '201': controlResponse('The session was made.', 'SessionKeys'),
      '400': controlResponse(
        'The body is not JSON (invalid_json) or has other fields (validation_failed), the id is not one (invalid_session), the scenario is not loaded (unknown_scenario), or a field of from is wrong, named as from.<field> (validation_failed).',
      ),
      '409': controlResponse(
        'With from: a session of this id is live (session_exists); end it with DELETE /__sandbox/sessions/{id} first.',
      ),
      '413': controlResponse(
        'With from: a body over 16 MiB on the standalone server (payload_too_large); an export imports without its journal.',
      ),
      '415': NOT_JSON,
      ...pathErrors('control'),
    },
  },
  deleteSession: {
    tags: ['Sandbox'],
    description:
      'Ends a session; a request naming it later starts a fresh one. The default session cannot be deleted (reset it instead).',
    parameters: [
      {
        name: 'id',
        in: 'path',
        required: true,
        description: 'The session id.',
        schema: { type: 'string', pattern: '^[A-Za-z0-9_-]{1,64}$' },
      },
    ],
    responses: {
      '204': { description: 'The session is gone.' },
      '400': controlResponse(
        'The default session (invalid_session), or an id with a malformed percent-escape (invalid_path).',
      ),
      '404': controlResponse('No live session with this id (not_found).'),
      '405': ref('responses', 'ControlMethodNotAllowed'),
    },
  },
  listRequests: {
    tags: ['Sandbox'],
    description:
      'The most recent API requests of the session (X-Sandbox-Session, or a session key as the bearer token) with their status, code, message, key, plan, scenario, latency, rate-limit state, Content-Type and X-Sandbox-* request headers and the first 4 KiB of the request body, newest first; at most journalSize (100) are kept, and fewer when the journals of all sessions hold more than maxJournalBytes (32 MiB; the oldest go first, each session keeps its last 10); paths over 2 KiB are cut, ending with "…"; no response bodies. Poll with after=<lastId> for what came since (the inspector at /inspector/ does, once a second).',
    parameters: [
      {
        name: 'limit',
        in: 'query',
        required: false,
        description: 'How many entries to return at most.',
        schema: { type: 'integer', minimum: 1 },
      },
      {
        name: 'after',
        in: 'query',
        required: false,
        description:
          'Only entries with a greater id: send the lastId of the previous answer to poll.',
        schema: { type: 'integer', minimum: 0 },
      },
      sessionHeader,
    ],
    responses: {
      '200': controlResponse('The journal.', 'Journal'),
      '400': controlResponse(
        'limit is not a positive integer, or after not an integer from 0 (validation_failed).',
      ),
      ...pathErrors('control'),
    },
  },
}
