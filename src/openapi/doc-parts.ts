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

export const ref = (kind: string, name: string) => ({
  $ref: `#/components/${kind}/${name}`,
})
export const json = (schema: string) => ({
  'application/json': { schema: ref('schemas', schema) },
})

export const rateLimitHeaders = {
  'X-RateLimit-Limit': ref('headers', 'X-RateLimit-Limit'),
  'X-RateLimit-Remaining': ref('headers', 'X-RateLimit-Remaining'),
  'X-RateLimit-Reset': ref('headers', 'X-RateLimit-Reset'),
}
export const deprecationHeaders = {
  Deprecation: ref('headers', 'Deprecation'),
  Sunset: ref('headers', 'Sunset'),
  Link: ref('headers', 'Link'),
}
export const retryAfter = { 'Retry-After': ref('headers', 'Retry-After') }

/** A response of the API: rate-limit headers (and any others given) and a body. */
export const apiResponse = (
  description: string,
  schema = 'Error',
  headers: Json = {},
) => ({
  description,
  headers: { ...rateLimitHeaders, ...headers },
  content: json(schema),
})
export const controlResponse = (description: string, schema = 'Error') => ({
  description,
  content: json(schema),
})

export const UNKNOWN_SCENARIO =
  'Also 400 unknown_scenario for an unknown X-Sandbox-Scenario.'
export const FORCED =
  'An error a scenario forces (e.g. 503 service_unavailable); never in the default scenario.'

/** A control body of another type than application/json, +json types included. */
export const NOT_JSON = controlResponse(
  'The body is not application/json, +json types included (unsupported_media_type).',
)

/** The 404 and 405 every path may answer: a mistyped path, or a method it does not take. */
export const pathErrors = (scope: 'api' | 'control') => ({
  '404': ref('responses', scope === 'api' ? 'NotFound' : 'ControlNotFound'),
  '405': ref(
    'responses',
    scope === 'api' ? 'MethodNotAllowed' : 'ControlMethodNotAllowed',
  ),
})

export const scenarioHeader = ref('parameters', 'X-Sandbox-Scenario')
export const sessionHeader = ref('parameters', 'X-Sandbox-Session')
