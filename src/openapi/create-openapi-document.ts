import { API_ROUTES } from '../core/api/routes.js'
import { CONTROL_PATH } from '../core/control/control-call.js'
import { CONTROL_ROUTES } from '../core/control/routes.js'
import { createPaths, usedComponents } from './document-builder.js'
import { apiServerUrl, controlServerUrl } from './servers.js'

export { DEFAULT_SERVER_URL } from './servers.js'

/** Options of {@link createOpenApiDocument} and {@link createControlOpenApiDocument}. */
export interface OpenApiDocumentOptions {
  /**
   * The origin (and mount path, if any) of the sandbox the document describes, listed
   * first among the servers so that "try it" tools call the sandbox. Default
   * `http://127.0.0.1:4010`, the CLI's, for the API; `/` for the control API.
   */
  serverUrl?: string
}

const LICENSE = { name: 'MIT', identifier: 'MIT' }

/**
 * Builds the OpenAPI 3.1 document of the Pet Adoption Service API as the sandbox serves
 * it: `paths` from the route table, component schemas from the zod schemas (zod's JSON
 * Schema output), the rest from the documentation beside them. The control API has its
 * own document ({@link createControlOpenApiDocument}). The build writes this one as
 * `dist/openapi.json` (`petstore-sandbox/openapi.json`); the standalone server serves it
 * at `/openapi.json` naming itself.
 *
 * @example
 * const document = createOpenApiDocument({ serverUrl: 'http://127.0.0.1:4010' })
 * document.servers[0].url // 'http://127.0.0.1:4010/v1'
 * @see docs/openapi.md
 */
export function createOpenApiDocument(options: OpenApiDocumentOptions = {}) {
  const paths = createPaths(API_ROUTES, '')
  return {
    openapi: '3.1.0',
    info: {
      title: 'Pet Adoption Service (petstore-sandbox)',
      version: '1.0.0',
      description: [
        "The v1 interface of the Pet Adoption Service as the sandbox serves it. The sandbox's own control API (state, reset, scenarios, clock, journal, sessions) has its own document, /__sandbox/openapi.json (petstore-sandbox/control-openapi.json), whose server is the sandbox's root: generate its client from that one.",
        "Every error is an Error body `{code, message, status}`. Unknown paths are 404 not_found, and a method a path does not take is 405 method_not_allowed with an Allow header listing the ones it does. Before routing, a request target that is not a path (`*`, an absolute URL naming another host), a path with dot segments or an encoded slash, dot or backslash, or a malformed percent-escape in the path or the query is 400 invalid_path, and a Host that is not a host 400 invalid_host. Error codes and the behaviour where the interface document is silent are the sandbox's documented decisions (docs/api.md and docs/errors.md in the package).",
        'HEAD is answered wherever GET is, as that GET without a body: the same status and headers (RFC 9110), counted against the rate limit like it. This document lists the GET operations only, so that generated clients have no HEAD methods; Allow lists HEAD.',
        'Parts that exist only in the sandbox (the X-Sandbox-* parameters) carry the extension `x-sandbox: true`: leave them out to generate a client of the real API.',
      ].join('\n\n'),
      license: LICENSE,
    },
    servers: [
      {
        url: apiServerUrl(options.serverUrl),
        description: 'This sandbox (petstore-sandbox)',
      },
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
    ],
    paths,
    components: {
      securitySchemes: {
        bearerAuth: {
          type: 'http',
          scheme: 'bearer',
          description:
            'Authorization: Bearer <API_KEY>. Demo keys: sandbox-free-key, sandbox-pro-key, sandbox-business-key, sandbox-enterprise-key, sandbox-expired-key.',
        },
      },
      ...usedComponents(paths),
    },
  }
}

/**
 * Builds the OpenAPI 3.1 document of the sandbox's control API (`/__sandbox`), from the
 * same route table and components as {@link createOpenApiDocument}. Its paths are the
 * full `/__sandbox/...` paths and its one server is the sandbox's root, not `/v1`: a
 * client generated from it (openapi-fetch, hey-api), given the root as its base
 * address, calls `/__sandbox/reset`. The build writes it as `dist/control-openapi.json`
 * (`petstore-sandbox/control-openapi.json`) with `/` as its server; the standalone
 * server serves it at `/__sandbox/openapi.json` naming its origin and mount path.
 *
 * @example
 * const document = createControlOpenApiDocument({ serverUrl: 'http://127.0.0.1:4010' })
 * document.servers[0].url // 'http://127.0.0.1:4010'
 * @see docs/openapi.md
 */
export function createControlOpenApiDocument(options: OpenApiDocumentOptions = {}) {
  const paths = createPaths(CONTROL_ROUTES, CONTROL_PATH, { 'x-sandbox': true })
  return {
    openapi: '3.1.0',
    info: {
      title: 'petstore-sandbox control API',
      version: '1.0.0',
      description: [
        "The sandbox's own control API, which the real Pet Adoption Service does not have: state, reset, scenarios, the clock, the journal, sessions, exports and the report card. The API itself is described by /openapi.json (petstore-sandbox/openapi.json).",
        "Paths are the full paths from the sandbox's root (/__sandbox/...), so the base address of a generated client is the root, e.g. http://127.0.0.1:4010, never /v1. The copy the standalone server serves at /__sandbox/openapi.json names the origin and mount path it was fetched from; the one in the package (petstore-sandbox/control-openapi.json) names /.",
        'No API key: on a server bound to loopback the control API is open; beyond loopback (or with --control-token) every request carries X-Sandbox-Control-Token (controlToken). Every error is an Error body `{code, message, status}`.',
      ].join('\n\n'),
      license: LICENSE,
      'x-sandbox': true,
    },
    servers: [
      {
        // '/' stays '/': a server URL relative to wherever the document was read from.
        url: controlServerUrl(options.serverUrl),
        description:
          "This sandbox's root: the control API is under /__sandbox, outside /v1.",
      },
    ],
    // Optional: needed only when the server is locked (docs/security.md).
    security: [{}, { controlToken: [] }],
    tags: [
      {
        name: 'Sandbox',
        description:
          "Sandbox only: the control API (state, reset, scenario, clock, journal, sessions), outside the API's base address.",
        'x-sandbox': true,
      },
    ],
    paths,
    components: {
      securitySchemes: {
        controlToken: {
          type: 'apiKey',
          in: 'header',
          name: 'X-Sandbox-Control-Token',
          'x-sandbox': true,
          description:
            'The control token the server prints at startup (or --control-token). Not needed on a server bound to loopback without --control-token.',
        },
      },
      ...usedComponents(paths),
    },
  }
}
