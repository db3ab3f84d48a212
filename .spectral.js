// Spectral ruleset of the OpenAPI documents (dist/openapi.json, dist/control-openapi.json): spectral:oas, with the
// rules generators and "try it" tools depend on as errors. `npm run lint:openapi` runs
// it; the Spectral CLI and editor plugins find it here too.
import { oas } from '@stoplight/spectral-rulesets'
import { truthy, falsy } from '@stoplight/spectral-functions'

// Every schema object with `required` names properties it defines: openapi-typescript
// turns an object without `properties` into Record<string, never>.
function requiredPropertiesDefined(schema) {
  if (!schema || typeof schema !== 'object' || !Array.isArray(schema.required)) return []
  const defined = schema.properties ?? {}
  return schema.required
    .filter((name) => !(name in defined))
    .map((name) => ({ message: `"${name}" is required but not among the properties.` }))
}

// A `const` without `type`: orval's TypeScript for it fails `tsc --strict`.
function constHasType(schema) {
  if (!schema || typeof schema !== 'object' || !('const' in schema)) return []
  return 'type' in schema ? [] : [{ message: 'A const needs a type beside it.' }]
}

// An operation whose only answers are errors must not carry a `default`: generators read
// it as the success type.
function noDefaultWithoutSuccess(responses) {
  const codes = Object.keys(responses ?? {})
  const success = codes.some((code) => /^2/.test(code))
  return !success && codes.includes('default')
    ? [{ message: 'No 2xx response: a default response would be read as the success.' }]
    : []
}

// Rate-limit header values are never negative: `minimum: 0` lets generators type them so.
function integerFromZero(schema) {
  return schema?.type === 'integer' && schema.minimum === 0
    ? []
    : [{ message: 'A rate-limit header is an integer with minimum 0.' }]
}

function hasSandboxTag(tags) {
  return Array.isArray(tags) && tags.includes('Sandbox')
    ? []
    : [{ message: 'A control API operation carries the tag Sandbox.' }]
}

const allSchemas = [
  '$.components.schemas..[?(@ && @.type)]',
  '$.paths..schema..[?(@ && @.type)]',
  '$.paths..schema',
  '$.components.schemas[*]',
]

export default {
  extends: [[oas, 'recommended']],
  rules: {
    // Raised from warnings: each broke a generator or a "try it" tool once.
    'oas3-unused-component': 'error',
    'operation-tags': 'error',
    'operation-tag-defined': 'error',
    'operation-description': 'error',
    'operation-success-response': 'error',
    'oas3-valid-schema-example': 'error',
    'oas3-valid-media-example': 'error',
    'oas3-server-variables': 'error',
    'oas3-server-trailing-slash': 'error',
    'oas3-server-not-example.com': 'error',
    // The interface document publishes no contact.
    'info-contact': 'off',

    'schema-required-properties-defined': {
      description: 'An object schema defines the properties it requires.',
      severity: 'error',
      given: allSchemas,
      then: { function: requiredPropertiesDefined },
    },
    'schema-const-has-type': {
      description: 'A schema with const also has a type.',
      severity: 'error',
      given: ['$..[?(@ && @.const !== undefined)]'],
      then: { function: constHasType },
    },
    'response-schema-open': {
      description:
        'Response schemas do not forbid extra properties: a production Pet may carry a new field.',
      severity: 'error',
      resolved: true,
      given: '$.paths[*][*].responses[*].content[*].schema..additionalProperties',
      then: { function: truthy },
    },
    'rate-limit-header-minimum': {
      description: 'Rate-limit headers are integers of at least 0.',
      severity: 'error',
      given: '$.components.headers[?(@property.match(/^X-RateLimit-/))].schema',
      then: { function: integerFromZero },
    },
    'no-default-without-success': {
      description: 'An operation without a 2xx response has no default response.',
      severity: 'error',
      given: '$.paths[*][get,put,post,delete,patch,options,head].responses',
      then: { function: noDefaultWithoutSuccess },
    },
    'sandbox-operation-marked': {
      description: 'Control API operations carry the tag Sandbox and x-sandbox: true.',
      severity: 'error',
      given: '$.paths[?(@property.startsWith("/__sandbox"))][get,put,post,delete,patch]',
      then: [
        { field: 'x-sandbox', function: truthy },
        { field: 'tags', function: hasSandboxTag },
      ],
    },
    'sandbox-parameter-marked': {
      description: 'X-Sandbox-* parameters carry x-sandbox: true.',
      severity: 'error',
      resolved: false,
      given: '$..[?(@ && @.in && @.name && @.name.match(/^X-Sandbox-/i))]',
      then: { field: 'x-sandbox', function: truthy },
    },
    'api-operation-not-sandbox': {
      description: 'Operations of the real API are not marked as sandbox-only.',
      severity: 'error',
      given: '$.paths[?(!@property.startsWith("/__sandbox"))][get,put,post,delete,patch]',
      then: { field: 'x-sandbox', function: falsy },
    },
  },
  overrides: [
    {
      // listOrders: the interface publishes no success response, and the sandbox
      // answers 501; documenting a 2xx would be inventing one.
      files: ['**#/paths/~1store~1orders/get/responses'],
      rules: { 'operation-success-response': 'off' },
    },
  ],
}
