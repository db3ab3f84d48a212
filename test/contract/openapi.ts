import { Ajv2020 } from 'ajv/dist/2020.js'
import addFormatsModule from 'ajv-formats'
import document from '../../src/core/openapi.json' with { type: 'json' }

const addFormats = addFormatsModule as unknown as (ajv: Ajv2020) => void
const ajv = new Ajv2020({ strict: false, allErrors: true })
addFormats(ajv)
ajv.addSchema(document, 'openapi')

type Json = Record<string, unknown>
const paths = document.paths as unknown as Record<string, Record<string, Json>>
const pointer = (...parts: string[]) =>
  parts.map((part) => part.replace(/~/g, '~0').replace(/\//g, '~1')).join('/')

const templates = Object.keys(paths).map((template) => ({
  template,
  pattern: new RegExp(`^${template.replace(/\{[^}]+\}/g, '[^/]+')}$`),
}))

function resolveRef(node: Json): { node: Json; at: string | undefined } {
  const ref = node.$ref
  if (typeof ref !== 'string') return { node, at: undefined }
  const parts = ref.replace(/^#\//, '').split('/')
  let target: unknown = document
  for (const part of parts)
    target = (target as Json)[part.replace(/~1/g, '/').replace(/~0/g, '~')]
  return { node: target as Json, at: ref }
}

/**
 * Checks a response against the shipped OpenAPI document: the documented status for
 * the operation, the required headers and the body schema. Returns the problems found.
 */
export function openApiProblems(
  method: string,
  pathname: string,
  status: number,
  headers: Headers,
  body: unknown,
): string[] {
  const apiPath = pathname.startsWith('/__sandbox')
    ? pathname
    : pathname.replace(/^\/v1/, '')
  const match = templates.find(({ pattern }) => pattern.test(apiPath))
  if (!match) return [] // Unknown paths are not operations; their 404 is checked by the suite.
  const operation = paths[match.template]?.[method.toLowerCase()] as Json | undefined
  if (!operation) return [] // Wrong methods: 405, checked by the suite.
  const responses = operation.responses as Record<string, Json>
  const key = String(status) in responses ? String(status) : 'default'
  const declared = responses[key]
  if (!declared)
    return [`${method} ${match.template}: status ${status} is not documented`]
  const { node: response, at } = resolveRef(declared)
  const problems: string[] = []
  for (const [name, header] of Object.entries(
    (response.headers ?? {}) as Record<string, Json>,
  )) {
    const { node: spec } = resolveRef(header)
    const value = headers.get(name)
    if (spec.required && value === null) problems.push(`header ${name} is missing`)
    const schema = spec.schema as Json | undefined
    if (value !== null && schema?.type === 'integer' && !/^-?\d+$/.test(value)) {
      problems.push(`header ${name} is not an integer: ${value}`)
    }
    if (
      value !== null &&
      typeof schema?.pattern === 'string' &&
      !new RegExp(schema.pattern).test(value)
    ) {
      problems.push(`header ${name} does not match ${schema.pattern}: ${value}`)
    }
  }
  const content = response.content as Record<string, Json> | undefined
  if (content?.['application/json']) {
    const schemaPointer = at
      ? `openapi${at}/content/${pointer('application/json')}/schema`
      : `openapi#/${pointer('paths', match.template, method.toLowerCase(), 'responses', key, 'content', 'application/json', 'schema')}`
    const validate = ajv.getSchema(schemaPointer)
    if (!validate) return [...problems, `no schema at ${schemaPointer}`]
    if (!validate(body)) problems.push(`body: ${ajv.errorsText(validate.errors)}`)
  }
  return problems
}
