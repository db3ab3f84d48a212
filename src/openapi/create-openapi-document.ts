import {
  allowedMethods,
  API_ROUTES,
  CONTROL_PATH,
  CONTROL_ROUTES,
} from '../core/routes.js'
import { createComponentSchemas, type JsonSchema } from './component-schemas.js'
import type { Json } from './doc-parts.js'
import { COMPONENT_RESPONSES, OPERATION_DOCS } from './operations.js'

/** Options of {@link createOpenApiDocument}. */
export interface OpenApiDocumentOptions {
  /**
   * The origin of the sandbox the document describes, listed first among the servers so
   * that "try it" tools call the sandbox. Default `http://127.0.0.1:4010`, the CLI's.
   */
  serverUrl?: string
}

/** The origin the CLI serves on by default, named by the shipped document. */
export const DEFAULT_SERVER_URL = 'http://127.0.0.1:4010'

/** The path prefix the API's operations are relative to. */
const API_BASE = '/v1'

let schemas: Record<string, JsonSchema> | undefined

/**
 * Builds the OpenAPI 3.1 document of the API and of the control API: `paths` from the
 * route table, component schemas from the zod schemas (zod's JSON Schema output), the
 * rest from the documentation beside them. The build writes it as `dist/openapi.json`
 * (`petstore-sandbox/openapi.json`); the standalone server serves it naming itself.
 *
 * @example
 * const document = createOpenApiDocument({ serverUrl: 'http://127.0.0.1:4010' })
 * document.servers[0].url // 'http://127.0.0.1:4010/v1'
 * @see docs/api.md#the-api
 */
export function createOpenApiDocument(options: OpenApiDocumentOptions = {}) {
  const origin = (options.serverUrl ?? DEFAULT_SERVER_URL).replace(/\/+$/, '')
  schemas ??= createComponentSchemas()
  return {
    openapi: '3.1.0',
    info: {
      title: 'Pet Adoption Service (petstore-sandbox)',
      version: '1.0.0',
      description: [
        "The v1 interface of the Pet Adoption Service as the sandbox serves it, plus the sandbox's own control API under /__sandbox.",
        "Every error is an Error body `{code, message, status}`. Unknown paths are 404 not_found, and a method a path does not take is 405 method_not_allowed with an Allow header listing the ones it does. Before routing, a request target that is not a path (`*`, an absolute URL naming another host), a path with dot segments or an encoded slash, dot or backslash, or a malformed percent-escape in the path or the query is 400 invalid_path, and a Host that is not a host 400 invalid_host. Error codes and the behaviour where the interface document is silent are the sandbox's documented decisions (docs/api.md and docs/errors.md in the package).",
        'HEAD is answered wherever GET is, as that GET without a body: the same status and headers (RFC 9110), counted against the rate limit like it. This document lists the GET operations only, so that generated clients have no HEAD methods; Allow lists HEAD.',
        'Parts that exist only in the sandbox (the X-Sandbox-* parameters, /__sandbox) carry the tag Sandbox and the extension `x-sandbox: true`: leave them out to generate a client of the real API.',
      ].join('\n\n'),
      license: { name: 'MIT', identifier: 'MIT' },
    },
    servers: [
      { url: `${origin}${API_BASE}`, description: 'This sandbox (petstore-sandbox)' },
      {
        url: '{base_url}',
        description:
          'Production. The interface document does not publish the address: set base_url to it (it ends in /v1).',
        variables: {
          base_url: {
            default: 'https://production.invalid/v1',
            description: 'The production base address, ending in /v1.',
          },
        },
      },
      {
        url: '{staging_base_url}',
        description:
          'Staging. The interface document does not publish the address: set staging_base_url to it (it ends in /v1).',
        variables: {
          staging_base_url: {
            default: 'https://staging.invalid/v1',
            description: 'The staging base address, ending in /v1.',
          },
        },
      },
    ],
    security: [{ bearerAuth: [] }],
    tags: [
      { name: 'Pets', description: 'Animals for adoption.' },
      {
        name: 'Store',
        description: 'Store endpoints the interface mentions without a shape.',
      },
      {
        name: 'Sandbox',
        description:
          "Sandbox only: the control API (state, reset, scenario, clock, journal), outside the API's base address, without authentication.",
        'x-sandbox': true,
      },
    ],
    paths: createPaths(origin),
    components: {
      securitySchemes: {
        bearerAuth: {
          type: 'http',
          scheme: 'bearer',
          description:
            'Authorization: Bearer <API_KEY>. Demo keys: sandbox-free-key, sandbox-pro-key, sandbox-business-key, sandbox-enterprise-key, sandbox-expired-key.',
        },
      },
      schemas: structuredClone(schemas),
      parameters: {
        'X-Sandbox-Scenario': {
          name: 'X-Sandbox-Scenario',
          in: 'header',
          required: false,
          description:
            'Sandbox only: answer this request as the named loaded scenario (e.g. rate-limited). An unknown name is 400 unknown_scenario; an empty value is ignored.',
          schema: { type: 'string', examples: ['rate-limited'] },
          'x-sandbox': true,
        },
        'X-Sandbox-Session': {
          name: 'X-Sandbox-Session',
          in: 'header',
          required: false,
          description:
            'Sandbox only: the isolated session this request belongs to (its own pets, limits, clock, scenario switch and journal), made on first use. A session key (sandbox-free-key.<id>) does the same without the header.',
          schema: {
            type: 'string',
            pattern: '^[A-Za-z0-9_-]{1,64}$',
            examples: ['worker-1'],
          },
          'x-sandbox': true,
        },
      },
      headers: HEADERS,
      responses: structuredClone(COMPONENT_RESPONSES),
    },
  }
}

/**
 * The document's paths: each route of the core's route table once, under its template,
 * documented by operationId.
 */
function createPaths(origin: string) {
  const paths: Record<string, Json> = {}
  const routes = [
    ...API_ROUTES.map((route) => ({ route, control: false })),
    ...CONTROL_ROUTES.map((route) => ({ route, control: true })),
  ]
  for (const { route, control } of routes) {
    const doc = OPERATION_DOCS[route.operationId]
    if (!doc)
      throw new Error(`Failed to document ${route.operationId}: no documentation.`)
    const template = control ? `${CONTROL_PATH}${route.path}` : route.path
    const item = (paths[template] ??= control
      ? {
          servers: [
            { url: origin, description: 'This sandbox: the control API is outside /v1.' },
          ],
          'x-sandbox': true,
        }
      : {})
    item[route.method.toLowerCase()] = {
      operationId: route.operationId,
      summary: route.summary,
      description: doc.description,
      tags: doc.tags,
      ...(route.deprecated ? { deprecated: true } : {}),
      ...(control ? { security: [], 'x-sandbox': true } : {}),
      ...(doc.parameters ? { parameters: doc.parameters } : {}),
      ...(doc.requestBody ? { requestBody: doc.requestBody } : {}),
      responses: doc.responses,
    }
  }
  return structuredClone(paths)
}

const integerHeader = (description: string, minimum: number) => ({
  required: true,
  description,
  schema: { type: 'integer', minimum },
})

const HEADERS = {
  'X-RateLimit-Limit': integerHeader(
    'The limit currently applying: the window nearest to exhaustion.',
    0,
  ),
  'X-RateLimit-Remaining': integerHeader('Requests remaining in that window.', 0),
  'X-RateLimit-Reset': integerHeader(
    'Unix timestamp (seconds) at which that window resets.',
    0,
  ),
  'Retry-After': integerHeader('Seconds to wait before retrying.', 1),
  Deprecation: {
    required: true,
    description: 'RFC 9745: @<unix seconds>, the instant the endpoint was deprecated.',
    schema: { type: 'string', pattern: '^@\\d+$', examples: ['@1767225600'] },
  },
  Sunset: {
    required: true,
    description: 'RFC 8594 HTTP-date of the removal.',
    schema: { type: 'string', examples: ['Thu, 05 Dec 2030 00:00:00 GMT'] },
  },
  Link: {
    required: true,
    description: 'The replacement: </v1/pets>; rel="successor-version".',
    schema: { type: 'string', examples: ['</v1/pets>; rel="successor-version"'] },
  },
  Allow: {
    required: true,
    description: 'The methods the path takes; HEAD wherever GET.',
    // From the route table, as the answers' Allow: 'GET, HEAD, POST' on /pets.
    schema: {
      type: 'string',
      examples: [allowedMethods(API_ROUTES.filter((route) => route.path === '/pets'))],
    },
  },
}
