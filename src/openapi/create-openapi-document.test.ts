import { readFileSync } from 'node:fs'
import { describe, expect, expectTypeOf, test } from 'vitest'
import * as z from 'zod'
import { API_ERROR_CODES, API_ERROR_STATUS } from '../core/api-errors.js'
import type { ClockState } from '../core/clock.js'
import type { JournalEntry } from '../core/journal.js'
import type { Report } from '../core/report-card.js'
import { API_ROUTES, CONTROL_PATH, CONTROL_ROUTES } from '../core/routes.js'
import type { SandboxState } from '../core/sandbox.js'
import {
  apiErrorSchema,
  newPetSchema,
  petSchema,
  petStatusSchema,
} from '../core/schemas.js'
import {
  clockStateSchema,
  componentRegistry,
  JSON_SCHEMA_OPTIONS,
  journalEntrySchema,
  reportSchema,
  sandboxStateSchema,
} from './component-schemas.js'
import { createOpenApiDocument, DEFAULT_SERVER_URL } from './create-openapi-document.js'
import { OPERATION_DOCS } from './operations.js'

type Json = Record<string, any>
const ROUTES = [
  ...API_ROUTES.map((route) => ({ ...route, path: route.path })),
  ...CONTROL_ROUTES.map((route) => ({ ...route, path: `${CONTROL_PATH}${route.path}` })),
]
const document = createOpenApiDocument() as Json
const METHODS = ['get', 'put', 'post', 'delete', 'patch', 'head', 'options']
const operations = () =>
  Object.entries(document.paths as Json).flatMap(([path, item]) =>
    METHODS.filter((method) => item[method]).map((method) => ({
      path,
      method,
      operation: item[method] as Json,
    })),
  )
const resolve = (node: Json): Json =>
  typeof node.$ref === 'string'
    ? resolve(
        node.$ref
          .slice(2)
          .split('/')
          .reduce((at: Json, part: string) => at[part], document),
      )
    : node
/** Every node of the document with its JSON pointer. */
function* walk(node: unknown, at = '#'): Generator<[Json, string]> {
  if (node && typeof node === 'object') {
    yield [node as Json, at]
    for (const [key, child] of Object.entries(node)) yield* walk(child, `${at}/${key}`)
  }
}

test('the shipped dist/openapi.json is what the sources give (run npm run build first)', () => {
  const shipped = JSON.parse(readFileSync('dist/openapi.json', 'utf8'))
  expect(shipped).toEqual(createOpenApiDocument())
})

describe('component schemas', () => {
  test("are zod's JSON Schema output of the registered schemas, the API's from the core", () => {
    expect(componentRegistry.get(petSchema)?.id).toBe('Pet')
    expect(componentRegistry.get(newPetSchema)?.id).toBe('NewPet')
    expect(componentRegistry.get(petStatusSchema)?.id).toBe('PetStatus')
    expect(componentRegistry.get(apiErrorSchema)?.id).toBe('Error')
    const { schemas } = z.toJSONSchema(componentRegistry, JSON_SCHEMA_OPTIONS)
    const fromZod = Object.fromEntries(
      Object.entries(schemas).map(([id, { $schema: _s, $id: _i, ...schema }]) => [
        id,
        schema,
      ]),
    )
    expect(document.components.schemas).toEqual(fromZod)
  })

  test('say what the seed says: int64 ids, the status enumeration, required fields', () => {
    const { Pet, NewPet, PetStatus, Error } = document.components.schemas
    expect(PetStatus.enum).toEqual(['available', 'pending', 'sold'])
    expect(Pet.required).toEqual(['id', 'name', 'categoryId'])
    expect(NewPet.required).toEqual(['name', 'categoryId'])
    expect(Pet.properties.id).toMatchObject({ type: 'integer', format: 'int64' })
    expect(NewPet.properties.categoryId).toMatchObject({
      type: 'integer',
      format: 'int64',
    })
    expect(Pet.properties.status).toEqual({ $ref: '#/components/schemas/PetStatus' })
    expect(Error.required).toEqual(['code', 'message', 'status'])
  })

  test('the control schemas describe what the core answers', () => {
    expectTypeOf<z.infer<typeof sandboxStateSchema>>().toEqualTypeOf<SandboxState>()
    expectTypeOf<z.infer<typeof clockStateSchema>>().toEqualTypeOf<ClockState>()
    expectTypeOf<z.infer<typeof journalEntrySchema>>().toEqualTypeOf<JournalEntry>()
    expectTypeOf<z.infer<typeof reportSchema>>().toEqualTypeOf<Report>()
  })
})

describe('paths', () => {
  test('come from the route table, each route documented and each documentation a route', () => {
    expect(operations().map(({ operation }) => operation.operationId)).toEqual(
      ROUTES.map((route) => route.operationId),
    )
    expect(Object.keys(OPERATION_DOCS).sort()).toEqual(
      ROUTES.map((route) => route.operationId).sort(),
    )
    for (const route of ROUTES) {
      const operation = document.paths[route.path][route.method.toLowerCase()]
      expect(operation).toMatchObject({
        operationId: route.operationId,
        summary: route.summary,
      })
      expect(operation.deprecated ?? false).toBe(route.deprecated ?? false)
    }
  })

  test('keep the operations and documented statuses users had', () => {
    const had: Record<string, string[]> = {
      listPets: ['200', '400', '401', '429', 'default'],
      createPet: ['201', '400', '401', '413', '415', '429', 'default'],
      getPet: ['200', '400', '401', '404', '410', '429', 'default'],
      listOrders: ['400', '401', '429', '501'],
      getSandboxState: ['200'],
      resetSandbox: ['200'],
      getScenario: ['200'],
      useScenario: ['200', '400'],
      defineScenario: ['200', '201', '400', '404', '405', '415'],
      deleteScenario: ['204', '400', '404', '405'],
      getClock: ['200'],
      setClock: ['200', '400'],
      listRequests: ['200', '400'],
      getRequest: ['200', '400', '404', '405'],
      exportHar: ['200'],
      exportSession: ['200'],
      getReport: ['200'],
      listSessions: ['200'],
      createSession: ['200', '201', '400', '409', '413'],
      deleteSession: ['204', '400'],
    }
    const now = Object.fromEntries(
      operations().map(({ operation }) => [
        operation.operationId,
        Object.keys(operation.responses),
      ]),
    )
    expect(Object.keys(now)).toEqual(Object.keys(had))
    for (const [id, statuses] of Object.entries(had))
      expect(now[id], id).toEqual(expect.arrayContaining([...statuses, '404', '405']))
    expect(document.paths['/pets/{petId}'].get.deprecated).toBe(true)
  })
})

describe('the fixes of issue 13', () => {
  test('the first server is the sandbox the document was fetched from, then production and staging', () => {
    expect(document.servers[0].url).toBe(`${DEFAULT_SERVER_URL}/v1`)
    const served = createOpenApiDocument({ serverUrl: 'http://localhost:5555/' }) as Json
    expect(served.servers[0].url).toBe('http://localhost:5555/v1')
    expect(served.paths['/__sandbox/clock'].servers).toEqual([
      expect.objectContaining({ url: 'http://localhost:5555' }),
    ])
    expect(served.servers.slice(1)).toEqual([
      expect.objectContaining({
        url: '{base_url}',
        variables: { base_url: expect.any(Object) },
      }),
      expect.objectContaining({
        url: '{staging_base_url}',
        variables: { staging_base_url: expect.any(Object) },
      }),
    ])
    // No host is invented: the defaults are in the reserved .invalid domain.
    for (const server of served.servers.slice(1))
      for (const variable of Object.values(server.variables) as Json[])
        expect(new URL(variable.default).hostname).toMatch(/\.invalid$/)
  })

  test('404 and 405 (with Allow) are documented on every operation', () => {
    for (const { operation } of operations()) {
      expect(
        resolve(operation.responses['404']).content['application/json'].schema,
      ).toEqual({
        $ref: '#/components/schemas/Error',
      })
      expect(resolve(operation.responses['405']).headers.Allow).toEqual({
        $ref: '#/components/headers/Allow',
      })
    }
  })

  test('Allow lists HEAD, as the answers do, and the document says HEAD is GET without a body', () => {
    expect(document.components.headers.Allow.schema.examples).toEqual(['GET, HEAD, POST'])
    expect(document.components.headers.Allow.description).toContain('HEAD')
    expect(document.info.description).toContain('HEAD is answered wherever GET is')
  })

  test('every schema requiring properties defines them, and every const has a type', () => {
    for (const [node, at] of walk(document)) {
      if (Array.isArray(node.required) && node.type === 'object')
        for (const name of node.required) expect(node.properties, at).toHaveProperty(name)
      if ('const' in node) expect(node, at).toHaveProperty('type')
    }
  })

  test('no response schema forbids extra properties', () => {
    for (const { operation } of operations()) {
      for (const response of Object.values(operation.responses) as Json[]) {
        const schema = resolve(response).content?.['application/json']?.schema
        const seen = new Set<Json>()
        const visit = (node: Json) => {
          if (seen.has(node)) return
          seen.add(node)
          for (const [child] of walk(node)) {
            expect(child.additionalProperties, operation.operationId).not.toBe(false)
            if (child.$ref) visit(resolve(child))
          }
        }
        if (schema) visit(schema)
      }
    }
  })

  test('rate-limit headers are integers from 0; listOrders has its 501 and no default', () => {
    for (const name of [
      'X-RateLimit-Limit',
      'X-RateLimit-Remaining',
      'X-RateLimit-Reset',
    ])
      expect(document.components.headers[name].schema).toEqual({
        type: 'integer',
        minimum: 0,
      })
    const listOrders = document.paths['/store/orders'].get
    expect(listOrders.responses).toHaveProperty('501')
    expect(listOrders.responses).not.toHaveProperty('default')
  })

  test('sandbox-only parts carry the tag Sandbox and x-sandbox: true, the API none', () => {
    for (const { path, operation } of operations()) {
      const sandbox = path.startsWith('/__sandbox')
      expect(operation['x-sandbox'] ?? false, path).toBe(sandbox)
      expect(operation.tags.includes('Sandbox'), path).toBe(sandbox)
    }
    const parameters = [...walk(document)]
      .map(([node]) => node)
      .filter((node) => typeof node.name === 'string' && node.in)
    expect(parameters.filter((node) => node['x-sandbox'])).toEqual(
      parameters.filter((node) => /^X-Sandbox-/i.test(node.name)),
    )
    expect(parameters.some((node) => node.name === 'X-Sandbox-Scenario')).toBe(true)
  })
})

describe('error codes', () => {
  // The error table of docs/errors.md is held to API_ERROR_CODES by src/core/api-errors.test.ts.
  test("Error.code lists the core's codes", () => {
    expect(document.components.schemas.Error.properties.code.examples).toEqual([
      ...API_ERROR_CODES,
    ])
  })

  test('every code a response names is one of them, with that status', () => {
    const codesIn = (text: string) =>
      [...text.matchAll(/\(([a-z]+(?:_[a-z]+)+)\)|\b\d{3} ([a-z]+(?:_[a-z]+)+)\b/g)].map(
        (match) => (match[1] ?? match[2]) as string,
      )
    let named = 0
    for (const { operation } of operations()) {
      for (const [status, declared] of Object.entries(operation.responses as Json)) {
        const response = resolve(declared)
        if (status === 'default') {
          // The example of a code a user's scenario may force.
          expect(codesIn(response.description)).toEqual(['service_unavailable'])
          continue
        }
        for (const code of codesIn(response.description)) {
          named++
          expect(API_ERROR_CODES, operation.operationId).toContain(code)
          expect(
            API_ERROR_STATUS[code as keyof typeof API_ERROR_STATUS],
            `${operation.operationId} ${status} ${code}`,
          ).toBe(Number(status))
        }
      }
    }
    expect(named).toBeGreaterThan(40)
  })
})

test("getPet's petId has an example, a seeded pet (contract testers call the path with it)", () => {
  const petId = document.paths['/pets/{petId}'].get.parameters.find(
    (parameter: { name: string }) => parameter.name === 'petId',
  )
  expect(petId.example).toBe(1)
})
