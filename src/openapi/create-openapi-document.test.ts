import { readFileSync } from 'node:fs'
import { describe, expect, expectTypeOf, test } from 'vitest'
import * as z from 'zod'
import { API_ERROR_CODES, API_ERROR_STATUS } from '../core/http/api-errors.js'
import type { ClockState } from '../core/data/clock.js'
import type { JournalEntry } from '../core/coach/journal.js'
import type { Report } from '../core/coach/report-card.js'
import { API_ROUTES } from '../core/api/routes.js'
import { CONTROL_PATH } from '../core/control/control-call.js'
import { summaryOf } from '../core/http/route-summaries.js'
import { CONTROL_ROUTES } from '../core/control/routes.js'
import type { SandboxState } from '../core/sandbox.js'
import {
  apiErrorSchema,
  newPetSchema,
  petSchema,
  petStatusSchema,
} from '../core/common/schemas.js'
import { componentRegistry, JSON_SCHEMA_OPTIONS } from './component-schemas.js'
import {
  clockStateSchema,
  journalEntrySchema,
  reportSchema,
  sandboxStateSchema,
} from './control-schemas.js'
import {
  createControlOpenApiDocument,
  createOpenApiDocument,
  DEFAULT_SERVER_URL,
} from './create-openapi-document.js'
import { OPERATION_DOCS } from './operations.js'

type Json = Record<string, any>
// The route table drives both documents: the API's routes the API's, the control API's
// (under /__sandbox) the control API's.
const API = API_ROUTES.map((route) => ({ ...route, path: route.path }))
const CONTROL = CONTROL_ROUTES.map((route) => ({
  ...route,
  path: `${CONTROL_PATH}${route.path}`,
}))
const ROUTES = [...API, ...CONTROL]
const document = createOpenApiDocument() as Json
const control = createControlOpenApiDocument() as Json
const DOCUMENTS = { api: document, control } as const
const METHODS = ['get', 'put', 'post', 'delete', 'patch', 'head', 'options']
/** The operations of one document, or of both (each operation is in exactly one). */
const operations = (of: Json | 'both' = 'both') =>
  (of === 'both' ? [document, control] : [of]).flatMap((doc) =>
    Object.entries(doc.paths as Json).flatMap(([path, item]) =>
      METHODS.filter((method) => item[method]).map((method) => ({
        doc,
        path,
        method,
        operation: item[method] as Json,
      })),
    ),
  )
const resolve = (node: Json, doc: Json = document): Json =>
  typeof node.$ref === 'string'
    ? resolve(
        node.$ref
          .slice(2)
          .split('/')
          .reduce((at: Json, part: string) => at[part], doc),
        doc,
      )
    : node
/** Every node of the document with its JSON pointer. */
function* walk(node: unknown, at = '#'): Generator<[Json, string]> {
  if (node && typeof node === 'object') {
    yield [node as Json, at]
    for (const [key, child] of Object.entries(node)) yield* walk(child, `${at}/${key}`)
  }
}

test('the shipped dist/openapi.json and dist/control-openapi.json are what the sources give (run npm run build first)', () => {
  expect(JSON.parse(readFileSync('dist/openapi.json', 'utf8'))).toEqual(document)
  const shipped = JSON.parse(readFileSync('dist/control-openapi.json', 'utf8'))
  expect(shipped).toEqual(control)
  expect(shipped.servers).toEqual([expect.objectContaining({ url: '/' })])
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
    // Each document keeps the ones it uses, as zod wrote them; none is used by neither.
    for (const doc of [document, control])
      for (const [id, schema] of Object.entries(doc.components.schemas))
        expect(schema, id).toEqual(fromZod[id])
    expect(
      new Set([
        ...Object.keys(document.components.schemas),
        ...Object.keys(control.components.schemas),
      ]),
    ).toEqual(new Set(Object.keys(fromZod)))
    expect(Object.keys(document.components.schemas).sort()).toEqual(
      ['Error', 'NewPet', 'Pet', 'PetStatus', 'Pets'].sort(),
    )
  })

  test('each document lists the components it uses and no others (Spectral, Redocly)', () => {
    for (const [name, doc] of Object.entries(DOCUMENTS)) {
      const referenced = new Set<string>()
      const visit = (node: Json) => {
        for (const [child] of walk(node)) {
          if (typeof child.$ref !== 'string' || referenced.has(child.$ref)) continue
          referenced.add(child.$ref)
          visit(resolve(child, doc))
        }
      }
      visit(doc.paths)
      const listed = Object.entries(doc.components as Json)
        .filter(([kind]) => kind !== 'securitySchemes')
        .flatMap(([kind, entries]) =>
          Object.keys(entries as Json).map((id) => `#/components/${kind}/${id}`),
        )
      expect(listed.sort(), name).toEqual([...referenced].sort())
    }
    expect(Object.keys(control.components.responses)).toEqual([
      'ControlNotFound',
      'ControlMethodNotAllowed',
    ])
    expect(Object.keys(control.components.parameters)).toEqual(['X-Sandbox-Session'])
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
  test('come from the route table, each route documented in exactly one document and each documentation a route', () => {
    const ids = (of: Json) => operations(of).map(({ operation }) => operation.operationId)
    expect(ids(document)).toEqual(API.map((route) => route.operationId))
    expect(ids(control)).toEqual(CONTROL.map((route) => route.operationId))
    expect(Object.keys(OPERATION_DOCS).sort()).toEqual(
      ROUTES.map((route) => route.operationId).sort(),
    )
    for (const [routes, doc, other] of [
      [API, document, control],
      [CONTROL, control, document],
    ] as const) {
      for (const route of routes) {
        const operation = doc.paths[route.path][route.method.toLowerCase()]
        expect(operation).toMatchObject({
          operationId: route.operationId,
          summary: summaryOf(route.operationId),
        })
        expect(operation.deprecated ?? false).toBe(route.deprecated ?? false)
        expect(other.paths[route.path]?.[route.method.toLowerCase()]).toBeUndefined()
      }
    }
    expect(
      Object.keys(document.paths).some((path) => path.startsWith(CONTROL_PATH)),
    ).toBe(false)
    expect(
      Object.keys(control.paths).every((path) => path.startsWith(CONTROL_PATH)),
    ).toBe(true)
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
      createSession: ['200', '201', '400', '409', '413', '507'],
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

describe('the control API has its own document (issue 24)', () => {
  test("its one server is the sandbox's root, never /v1, and no path names a server of its own", () => {
    // Generators (openapi-fetch, hey-api) ignore path-level servers: a client generated
    // from one document with the control paths under the /v1 server called /v1/__sandbox.
    expect(control.servers).toEqual([expect.objectContaining({ url: '/' })])
    const served = createControlOpenApiDocument({
      serverUrl: 'http://localhost:5555/',
    }) as Json
    expect(served.servers.map((server: Json) => server.url)).toEqual([
      'http://localhost:5555',
    ])
    expect(
      (createControlOpenApiDocument({ serverUrl: 'http://localhost:5555/mock' }) as Json)
        .servers[0].url,
    ).toBe('http://localhost:5555/mock')
    for (const doc of [document, control, served])
      for (const [path, item] of Object.entries(doc.paths as Json))
        expect(item.servers, path).toBeUndefined()
    expect(Object.keys(served.paths)).toContain('/__sandbox/reset')
  })

  test('the control API needs no API key; its token is an optional security scheme', () => {
    expect(control.security).toEqual([{}, { controlToken: [] }])
    expect(control.components.securitySchemes).toEqual({
      controlToken: expect.objectContaining({
        type: 'apiKey',
        in: 'header',
        name: 'X-Sandbox-Control-Token',
      }),
    })
    expect(Object.keys(document.components.securitySchemes)).toEqual(['bearerAuth'])
    for (const { operation } of operations(control))
      expect(operation.security, operation.operationId).toBeUndefined()
  })
})

describe('the fixes of issue 13', () => {
  test('the first server is the sandbox the document was fetched from, then production and staging', () => {
    expect(document.servers[0].url).toBe(`${DEFAULT_SERVER_URL}/v1`)
    const served = createOpenApiDocument({ serverUrl: 'http://localhost:5555/' }) as Json
    expect(served.servers[0].url).toBe('http://localhost:5555/v1')
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
    for (const { doc, operation } of operations()) {
      expect(
        resolve(operation.responses['404'], doc).content['application/json'].schema,
      ).toEqual({
        $ref: '#/components/schemas/Error',
      })
      expect(resolve(operation.responses['405'], doc).headers.Allow).toEqual({
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
    for (const [node, at] of [...walk(document), ...walk(control)]) {
      if (Array.isArray(node.required) && node.type === 'object')
        for (const name of node.required) expect(node.properties, at).toHaveProperty(name)
      if ('const' in node) expect(node, at).toHaveProperty('type')
    }
  })

  test('no response schema forbids extra properties', () => {
    for (const { doc, operation } of operations()) {
      for (const response of Object.values(operation.responses) as Json[]) {
        const schema = resolve(response, doc).content?.['application/json']?.schema
        const seen = new Set<Json>()
        const visit = (node: Json) => {
          if (seen.has(node)) return
          seen.add(node)
          for (const [child] of walk(node)) {
            expect(child.additionalProperties, operation.operationId).not.toBe(false)
            if (child.$ref) visit(resolve(child, doc))
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
    for (const { doc, path, operation } of operations()) {
      const sandbox = doc === control
      expect(operation['x-sandbox'] ?? false, path).toBe(sandbox)
      expect(operation.tags.includes('Sandbox'), path).toBe(sandbox)
    }
    expect(document.tags.map((tag: Json) => tag.name)).toEqual(['Pets', 'Store'])
    expect(control.tags).toEqual([
      expect.objectContaining({ name: 'Sandbox', 'x-sandbox': true }),
    ])
    const parameters = [...walk(document), ...walk(control)]
      .map(([node]) => node)
      .filter((node) => typeof node.name === 'string' && node.in)
    expect(parameters.filter((node) => node['x-sandbox'])).toEqual(
      parameters.filter((node) => /^X-Sandbox-/i.test(node.name)),
    )
    expect(parameters.some((node) => node.name === 'X-Sandbox-Scenario')).toBe(true)
  })
})

describe('error codes', () => {
  // The error table of docs/errors.md is held to API_ERROR_CODES by src/core/http/api-errors.test.ts.
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
    for (const { doc, operation } of operations()) {
      for (const [status, declared] of Object.entries(operation.responses as Json)) {
        const response = resolve(declared, doc)
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

test("getPet's petId carries the maximum the other id fields carry (above it the sandbox answers 400)", () => {
  const petId = document.paths['/pets/{petId}'].get.parameters.find(
    (parameter: { name: string }) => parameter.name === 'petId',
  )
  expect(petId.schema.maximum).toBe(Number.MAX_SAFE_INTEGER)
  expect(document.components.schemas.Pet.properties.id.maximum).toBe(petId.schema.maximum)
})

// A tool that mocks from the document (Prism) answers a response's example: a 400 whose
// example says 404 is a wrong answer the document taught it.
test('every error response of both documents has an Error example of its own status', () => {
  let seen = 0
  for (const { doc, path, method, operation } of operations()) {
    for (const [status, declared] of Object.entries(operation.responses as Json)) {
      const response = resolve(declared, doc)
      const media = response.content?.['application/json']
      if (media?.schema?.$ref !== '#/components/schemas/Error') continue
      const where = `${method} ${path} ${status}`
      expect(media.example, where).toBeDefined()
      expect(apiErrorSchema.safeParse(media.example).success, where).toBe(true)
      expect(media.example.status, where).toBe(
        status === 'default' ? 503 : Number(status),
      )
      expect(
        API_ERROR_STATUS[media.example.code as keyof typeof API_ERROR_STATUS],
        where,
      ).toBe(media.example.status)
      seen++
    }
  }
  expect(seen).toBeGreaterThan(40)
  // The 400 of listPets shows the code its description names first.
  expect(
    document.paths['/pets'].get.responses['400'].content['application/json'].example.code,
  ).toBe('validation_failed')
})
