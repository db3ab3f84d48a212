import { summaryOf } from '../core/http/route-summaries.js'
import { allowedMethods } from '../core/http/router.js'
import { API_ROUTES, type ApiRoute } from '../core/api/routes.js'
import { type ControlRoute } from '../core/control/routes.js'
import { createComponentSchemas, type JsonSchema } from './component-schemas.js'
import type { Json } from './doc-parts.js'
import { withErrorExample } from './error-examples.js'
import { COMPONENT_RESPONSES, OPERATION_DOCS } from './operations.js'

// What the API's document and the control API's share: the operations' paths from the
// route table, and the components, of which each document keeps only those it uses.

let schemas: Record<string, JsonSchema> | undefined

/**
 * The paths of `routes` under `prefix` (`/__sandbox` for the control API, none for the
 * API): each route once, under its template, documented by operationId.
 */
export function createPaths(
  routes: readonly (ApiRoute | ControlRoute)[],
  prefix: string,
  extra: Json = {},
): Record<string, Json> {
  const paths: Record<string, Json> = {}
  for (const route of routes) {
    const doc = OPERATION_DOCS[route.operationId]
    if (!doc)
      throw new Error(
        `Failed to document ${route.operationId}: no documentation. Add it to API_DOCS (src/openapi/operations.ts) or CONTROL_DOCS (src/openapi/control-docs.ts).`,
      )
    const item = (paths[`${prefix}${route.path}`] ??= {})
    item[route.method.toLowerCase()] = {
      operationId: route.operationId,
      summary: summaryOf(route.operationId),
      description: doc.description,
      tags: doc.tags,
      ...(route.deprecated ? { deprecated: true } : {}),
      ...extra,
      ...(doc.parameters ? { parameters: doc.parameters } : {}),
      ...(doc.requestBody ? { requestBody: doc.requestBody } : {}),
      responses: exemplified(doc.responses),
    }
  }
  return structuredClone(paths)
}

/**
 * An operation's responses, each inline Error response with an example of its own
 * status (the forced `default` one with the 503 its description names); the components
 * carry theirs (COMPONENT_RESPONSES).
 */
function exemplified(responses: Record<string, Json>): Record<string, Json> {
  return Object.fromEntries(
    Object.entries(responses).map(([status, response]) => [
      status,
      '$ref' in response
        ? response
        : withErrorExample(status === 'default' ? 503 : Number(status), response),
    ]),
  )
}

/**
 * The components `paths` refer to, directly or through other components, and no others:
 * a document listing components it never uses fails Spectral's oas3-unused-component and
 * Redocly's no-unused-components.
 */
export function usedComponents(paths: Json): Record<string, Record<string, unknown>> {
  const all: Record<string, Record<string, unknown>> = {
    schemas: (schemas ??= createComponentSchemas()),
    parameters: PARAMETERS,
    headers: HEADERS,
    responses: COMPONENT_RESPONSES,
  }
  const used: Record<string, Record<string, unknown>> = {}
  const visit = (node: unknown) => {
    if (!node || typeof node !== 'object') return
    const ref = (node as Json).$ref
    const match = typeof ref === 'string' && /^#\/components\/(\w+)\/(.+)$/.exec(ref)
    if (match) {
      const [, kind, name] = match as unknown as [string, string, string]
      const target = all[kind]?.[name]
      if (target === undefined)
        throw new Error(`Failed to document: ${ref} does not exist.`)
      if (!used[kind]?.[name]) {
        ;(used[kind] ??= {})[name] = target
        visit(target)
      }
    }
    for (const child of Object.values(node)) visit(child)
  }
  visit(paths)
  // In the order of `all`, so the documents read the same from build to build.
  return structuredClone(
    Object.fromEntries(
      Object.entries(all)
        .filter(([kind]) => used[kind])
        .map(([kind, entries]) => [
          kind,
          Object.fromEntries(
            Object.keys(entries)
              .filter((name) => used[kind]?.[name])
              .map((name) => [name, entries[name]]),
          ),
        ]),
    ),
  )
}

const PARAMETERS: Record<string, Json> = {
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
}

const integerHeader = (description: string, minimum: number) => ({
  required: true,
  description,
  schema: { type: 'integer', minimum },
})

const HEADERS: Record<string, Json> = {
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
