import { Ajv2020 } from 'ajv/dist/2020.js'
import addFormatsModule from 'ajv-formats'
import {
  createControlOpenApiDocument,
  createOpenApiDocument,
} from '../../src/openapi/create-openapi-document.js'

const addFormats = addFormatsModule as unknown as (ajv: Ajv2020) => void
const ajv = new Ajv2020({ strict: false, allErrors: true })
addFormats(ajv)

type Json = Record<string, unknown>

/** One of the two documents the checker holds answers to, with what it needs of it. */
interface Checked {
  id: string
  document: Json
  paths: Record<string, Record<string, Json>>
  templates: { template: string; pattern: RegExp }[]
}

/**
 * The documents the sources give (a test holds the shipped files to them): /v1 answers
 * are checked against the API's, /__sandbox answers against the control API's. Each
 * document lets responses carry fields it does not name (production may add some); the
 * sandbox's own responses must not, so the checker closes every object schema.
 */
const DOCUMENTS = Object.fromEntries(
  (
    [
      ['openapi', createOpenApiDocument()],
      ['control-openapi', createControlOpenApiDocument()],
    ] as const
  ).map(([id, created]) => {
    const document = created as unknown as Json
    ajv.addSchema(closeObjects(structuredClone(document)) as object, id)
    const paths = document.paths as Record<string, Record<string, Json>>
    const templates = Object.keys(paths).map((template) => ({
      template,
      pattern: new RegExp(`^${template.replace(/\{[^}]+\}/g, '[^/]+')}$`),
    }))
    return [id, { id, document, paths, templates } satisfies Checked]
  }),
) as Record<'openapi' | 'control-openapi', Checked>

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
const pointer = (...parts: string[]) =>
  parts.map((part) => part.replace(/~/g, '~0').replace(/\//g, '~1')).join('/')

function resolveRef(
  checked: Checked,
  node: Json,
): { node: Json; at: string | undefined } {
  const ref = node.$ref
  if (typeof ref !== 'string') return { node, at: undefined }
  const parts = ref.replace(/^#\//, '').split('/')
  let target: unknown = checked.document
  for (const part of parts)
    target = (target as Json)[part.replace(/~1/g, '/').replace(/~0/g, '~')]
  return { node: target as Json, at: ref }
}

/**
 * Checks a response against its OpenAPI document (the API's for /v1, the control API's
 * for /__sandbox): the documented status for
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
  // By the path as sent: /v1/__sandbox/reset is an unknown path of the API, not the
  // control API (the call a client generated from one document used to make).
  const control = pathname.startsWith('/__sandbox')
  if (!control && !pathname.startsWith('/v1')) return [] // Pages of the server, not the API.
  const apiPath = control ? pathname : pathname.slice('/v1'.length)
  const checked = DOCUMENTS[control ? 'control-openapi' : 'openapi']
  const match = checked.templates.find(({ pattern }) => pattern.test(apiPath))
  const operation = match
    ? (checked.paths[match.template]?.[method.toLowerCase()] as Json | undefined)
    : undefined
  if (!match || !operation) {
    // An unknown path (404) or a method the path does not take (405): the document's
    // reusable responses for them. Other answers (401, 429) come before routing.
    const name = !match ? 'NotFound' : 'MethodNotAllowed'
    if (status !== (match ? 405 : 404)) return []
    return responseProblems(
      checked,
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
    checked,
    declared,
    headers,
    body,
    `${checked.id}#/${pointer('paths', match.template, method.toLowerCase(), 'responses', key, 'content', 'application/json', 'schema')}`,
  )
}

function responseProblems(
  checked: Checked,
  declared: Json,
  headers: Headers,
  body: unknown,
  inlinePointer: string,
): string[] {
  const { node: response, at } = resolveRef(checked, declared)
  const problems: string[] = []
  for (const [name, header] of Object.entries(
    (response.headers ?? {}) as Record<string, Json>,
  )) {
    const { node: spec } = resolveRef(checked, header)
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
      ? `${checked.id}${at}/content/${pointer('application/json')}/schema`
      : inlinePointer
    const validate = ajv.getSchema(schemaPointer)
    if (!validate) return [...problems, `no schema at ${schemaPointer}`]
    if (!validate(body)) problems.push(`body: ${ajv.errorsText(validate.errors)}`)
  }
  return problems
}
