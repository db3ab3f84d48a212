import {
  ref,
  json,
  controlResponse,
  NOT_JSON,
  pathErrors,
  sessionHeader,
  type OperationDoc,
} from './doc-parts.js'

/** The answer of a PUT of a scenario: the definition as sent, with its name (not closed: fields may come). */
const definedScenario = (description: string) => ({
  description,
  content: {
    'application/json': {
      schema: {
        type: 'object',
        required: ['name', 'description'],
        properties: { name: { type: 'string' }, description: { type: 'string' } },
        // The scenario's other fields (components/schemas/Scenario), whichever it has.
        additionalProperties: true,
        description:
          'The scenario, in the schema of scenario files (components/schemas/Scenario).',
      },
    },
  },
})

/** The documentation of the control API's operations, by operationId. */
export const CONTROL_DOCS: Record<string, OperationDoc> = {
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
  defineScenario: {
    tags: ['Sandbox'],
    description:
      "Defines (201) or replaces (200) a scenario for the session the request names, the schema of scenario files without keys (keys are the sandbox's); name, if sent, must be the path's. Select it with PUT /__sandbox/scenario or X-Sandbox-Scenario. Cleared by a reset of the session, gone with it; at most 20 a session.",
    parameters: [
      {
        name: 'name',
        in: 'path',
        required: true,
        description: 'Kebab-case; not the name of a built-in or loaded scenario.',
        schema: { type: 'string', pattern: '^[a-z0-9][a-z0-9-]*$' },
        example: 'flaky-get',
      },
      sessionHeader,
    ],
    requestBody: { required: true, content: json('Scenario') },
    responses: {
      '200': definedScenario('Replaced: the scenario as now defined.'),
      '201': definedScenario('Defined: the scenario as defined.'),
      '400': controlResponse(
        "A field is wrong (named in the message), keys are set, the name is a built-in or loaded scenario's, the session has 20 already, the scenario holds more than 10,000 values besides data.pets, or the body nests more than 64 levels or has a list of more than 500,000 items (validation_failed, saying what to send instead); the body is not JSON (invalid_json).",
      ),
      '415': NOT_JSON,
      ...pathErrors('control'),
    },
  },
  deleteScenario: {
    tags: ['Sandbox'],
    description:
      'Removes a scenario the session defined at run time; if the session was using it, it goes back to its startup scenario.',
    parameters: [
      {
        name: 'name',
        in: 'path',
        required: true,
        description: 'A scenario the session defined with PUT.',
        schema: { type: 'string' },
        example: 'flaky-get',
      },
      sessionHeader,
    ],
    responses: {
      '204': { description: 'Removed.' },
      '400': controlResponse(
        'A built-in or loaded scenario, which cannot be deleted (validation_failed).',
      ),
      ...pathErrors('control'),
      '404': controlResponse('The session defines no scenario of this name (not_found).'),
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
  getRequest: {
    tags: ['Sandbox'],
    description:
      'One journal entry by its request id: the X-Sandbox-Request-Id header of a /v1 answer (control answers carry an id too but are not journalled). Found in whichever session holds it; 404 once it has left the journal (journalSize, maxJournalBytes, a reset).',
    parameters: [
      {
        name: 'id',
        in: 'path',
        required: true,
        description: 'The request id, from the X-Sandbox-Request-Id header.',
        schema: { type: 'integer', minimum: 1 },
        example: 1,
      },
    ],
    responses: {
      '200': controlResponse('The journal entry.', 'JournalEntry'),
      '400': controlResponse('id is not a positive integer (validation_failed).'),
      ...pathErrors('control'),
      '404': controlResponse(
        'No entry with this id in any journal (not_found): a control request, or one that has left the journal.',
      ),
    },
  },
  exportHar: {
    tags: ['Sandbox'],
    description:
      "The session's journal (X-Sandbox-Session, or a session key as the bearer token) as HAR 1.2, which browser dev tools import: URLs on the origin of this request, the request headers and bodies the journal kept, each answer's status, rate-limit headers and, for an error, its Error body. The log's comment says when the journal had dropped requests or cut bodies.",
    parameters: [sessionHeader],
    responses: {
      '200': controlResponse('The journal as HAR.', 'Har'),
      '503': controlResponse(
        'The standalone server holds 64 MiB of large answers (1 MiB or more) in flight at most, and other clients use it now (service_unavailable): send again after Retry-After.',
      ),
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
      '503': controlResponse(
        'The standalone server holds 64 MiB of large answers (1 MiB or more) in flight at most, and other clients use it now (service_unavailable): send again after Retry-After.',
      ),
      ...pathErrors('control'),
    },
  },
  getReport: {
    tags: ['Sandbox'],
    description:
      'The report card of the session (X-Sandbox-Session, or a session key as the bearer token): findings about its client from every /v1 request since the session started or was reset (counters, not the bounded journal), errors first, then warnings, then info. Each has a code, a severity, a count, a message saying what happened and why it matters in production, a fix, and the ids of its 5 most recent requests (GET /__sandbox/requests/{id}). A well-behaved client gets nothing above info; what a scenario you chose causes is info. While the clock is frozen, backoff and duplicate findings are not computed and clockFrozen is true.',
    parameters: [sessionHeader],
    responses: {
      '200': controlResponse('The report card.', 'Report'),
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
        'The body is not JSON (invalid_json) or has other fields (validation_failed), the id is not one (invalid_session), the scenario is not loaded (unknown_scenario), or a field of from is wrong, named as from.<field> (validation_failed). From is checked item by item and refused at the first wrong one: a pet of more than 32 values, a journal entry of more than 1,000, a journal of more than 100,000 entries, a scenario of more than 10,000 values besides data.pets. A body nested more than 64 levels or with a list of more than 500,000 items is refused before it is read whole (validation_failed).',
      ),
      '409': controlResponse(
        'With from: a session of this id is live (session_exists); end it with DELETE /__sandbox/sessions/{id} first.',
      ),
      '413': controlResponse(
        'With from: a body over 16 MiB on the standalone server (payload_too_large); an export imports without its journal.',
      ),
      '415': NOT_JSON,
      '503': controlResponse(
        'With from: the standalone server holds 64 MiB of large request bodies (1 MiB or more) in flight at most, and other clients use it now (service_unavailable): send again after Retry-After.',
      ),
      '507': controlResponse(
        'With from: the export holds more created pets than a world keeps (maxPets) or than the sandbox has room for across its worlds (maxTotalPets): storage_full, as for a create. The session is not made.',
      ),
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
