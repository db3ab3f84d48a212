import { Ajv2020 } from 'ajv/dist/2020.js'
import addFormatsModule from 'ajv-formats'
import { createOpenApiDocument } from '../../src/openapi/create-openapi-document.js'

const addFormats = addFormatsModule as unknown as (ajv: Ajv2020) => void
const ajv = new Ajv2020({ strict: false, allErrors: true })
addFormats(ajv)
// The document the sources give; a test holds the shipped dist/openapi.json to it.
const document = createOpenApiDocument()
// The document lets responses carry fields it does not name (production may add some);
// the sandbox's own responses must not, so the checker closes every object schema.
ajv.addSchema(closeObjects(structuredClone(document)) as object, 'openapi')

type Json = Record<string, unknown>

function closeObjects(node: unknown): unknown {
  if (Array.isArray(node)) node.forEach(closeObjects)
  else if (node && typeof node === 'object') {
    const schema = node as Json
    if (
      schema.type === 'object' &&
      schema.properties &&
      !('additionalProperties' in schema)
    )
      schema.additionalProperties = false
    Object.values(schema).forEach(closeObjects)
  }
  return node
}
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
 * the operation, the required headers and the body schema; a 404 of an unknown path and
 * a 405 of a method the path does not take against the document's responses for them.
 * Returns the problems found.
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
  const control = apiPath.startsWith('/__sandbox')
  if (!control && !pathname.startsWith('/v1')) return [] // Pages of the server, not the API.
  const match = templates.find(({ pattern }) => pattern.test(apiPath))
  const operation = match
    ? (paths[match.template]?.[method.toLowerCase()] as Json | undefined)
    : undefined
  if (!match || !operation) {
    // An unknown path (404) or a method the path does not take (405): the document's
    // reusable responses for them. Other answers (401, 429) come before routing.
    const name = !match ? 'NotFound' : 'MethodNotAllowed'
    if (status !== (match ? 405 : 404)) return []
    return responseProblems(
      { $ref: `#/components/responses/${control ? 'Control' : ''}${name}` },
      headers,
      body,
      '',
    )
  }
  const responses = operation.responses as Record<string, Json>
  const key = String(status) in responses ? String(status) : 'default'
  const declared = responses[key]
  if (!declared)
    return [`${method} ${match.template}: status ${status} is not documented`]
  return responseProblems(
    declared,
    headers,
    body,
    `openapi#/${pointer('paths', match.template, method.toLowerCase(), 'responses', key, 'content', 'application/json', 'schema')}`,
  )
}

function responseProblems(
  declared: Json,
  headers: Headers,
  body: unknown,
  inlinePointer: string,
): string[] {
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
      : inlinePointer
    const validate = ajv.getSchema(schemaPointer)
    if (!validate) return [...problems, `no schema at ${schemaPointer}`]
    if (!validate(body)) problems.push(`body: ${ajv.errorsText(validate.errors)}`)
  }
  return problems
}
