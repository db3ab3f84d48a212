import { MAX_SAFE_ID } from '../core/common/schemas.js'
import { CONTROL_DOCS } from './control-docs.js'
import {
  ref,
  json,
  deprecationHeaders,
  retryAfter,
  apiResponse,
  controlResponse,
  UNKNOWN_SCENARIO,
  FORCED,
  pathErrors,
  scenarioHeader,
  sessionHeader,
  type Json,
  type OperationDoc,
} from './doc-parts.js'
import { withErrorExample } from './error-examples.js'

/** The reusable responses the operations refer to. */
/** The reusable responses the operations refer to, each Error with an example of its status. */
export const COMPONENT_RESPONSES: Record<string, Json> = {
  Unauthorized: withErrorExample(
    401,
    apiResponse(
      'API key missing (missing_api_key), not Bearer (malformed_authorization), unknown (invalid_api_key) or expired (expired_api_key).',
    ),
  ),
  TooManyRequests: withErrorExample(
    429,
    apiResponse(
      'Over the limit (rate_limit_exceeded) or temporarily banned (api_key_temporarily_banned). Wait Retry-After seconds; back off exponentially.',
      'Error',
      retryAfter,
    ),
  ),
  NotFound: withErrorExample(
    404,
    apiResponse(
      'Nothing at this path under the base address (not_found), e.g. a mistyped path.',
    ),
  ),
  MethodNotAllowed: withErrorExample(
    405,
    apiResponse(
      'The path does not take the method sent (method_not_allowed); Allow lists the methods it takes.',
      'Error',
      { Allow: ref('headers', 'Allow') },
    ),
  ),
  // Any status a scenario forces; the example is the one the description names.
  ScenarioError: withErrorExample(503, apiResponse(FORCED)),
  ControlNotFound: withErrorExample(
    404,
    controlResponse(
      'No control endpoint at this path (not_found); the message lists them.',
    ),
  ),
  ControlMethodNotAllowed: withErrorExample(405, {
    ...controlResponse(
      'The control endpoint does not take the method sent (method_not_allowed); Allow lists the methods it takes.',
    ),
    headers: { Allow: ref('headers', 'Allow') },
  }),
}

/** Every response of getPet carries the deprecation headers. */
const getPetResponse = (description: string, schema = 'Error', headers: Json = {}) =>
  apiResponse(description, schema, { ...deprecationHeaders, ...headers })

/** The documentation of the v1 API's operations, by operationId. */
const API_DOCS: Record<string, OperationDoc> = {
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
        // Above 2^53 - 1 the sandbox answers 400, as the other id fields say.
        schema: { type: 'integer', format: 'int64', maximum: MAX_SAFE_ID },
        // A seeded pet: contract testers (Dredd) need an example to call the path.
        example: 1,
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
}

/** The documentation of every operation, by operationId. */
export const OPERATION_DOCS: Record<string, OperationDoc> = {
  ...API_DOCS,
  ...CONTROL_DOCS,
}
