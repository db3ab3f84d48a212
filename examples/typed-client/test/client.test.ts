import assert from 'node:assert/strict'
import { spawn, type ChildProcess } from 'node:child_process'
import { createInterface } from 'node:readline'
import { after, before, test } from 'node:test'
import { createSandbox } from 'petstore-sandbox'
import {
  createControlClient,
  createPetClient,
  type ApiError,
  type Pet,
  type SandboxState,
} from '../src/client.js'

// The standalone server from the installed package's bin, on a free port.
let server: ChildProcess
let baseUrl: string

before(async () => {
  server = spawn(
    'node_modules/.bin/petstore-sandbox',
    ['--port', '0', '--log-format', 'json'],
    {
      stdio: ['ignore', 'pipe', 'inherit'],
    },
  )
  const lines = createInterface({ input: server.stdout! })
  for await (const line of lines) {
    if (line.includes('"type":"ready"')) {
      baseUrl = (JSON.parse(line) as { url: string }).url
      break
    }
  }
  assert.ok(baseUrl, 'the server printed no ready line')
})

after(() => {
  server.kill('SIGTERM')
})

test('lists the seeded pets with the demo key', async () => {
  const client = createPetClient(baseUrl, 'sandbox-free-key')
  const { data, response } = await client.GET('/pets', {
    params: { query: { limit: 3 } },
  })
  assert.equal(response.status, 200)
  const pets: Pet[] = data ?? []
  const seeded = createSandbox() // the server's default seed
  await seeded.ready
  assert.deepEqual(pets, seeded.db.pets.all().slice(0, 3))
  assert.ok(Number(response.headers.get('x-ratelimit-remaining')) > 0)
})

test('a 429 from the rate-limited scenario has a typed Error body and Retry-After', async () => {
  const client = createPetClient(baseUrl, 'sandbox-free-key')
  const { data, error, response } = await client.GET('/pets', {
    params: { header: { 'X-Sandbox-Scenario': 'rate-limited' } },
  })
  assert.equal(data, undefined)
  assert.equal(response.status, 429)
  const body: ApiError | undefined = error
  assert.equal(body?.code, 'rate_limit_exceeded')
  assert.equal(body?.status, 429)
  assert.match(response.headers.get('retry-after') ?? '', /^\d+$/)
})

test('creating an invalid pet gives 400 validation_failed; a valid one 201', async () => {
  const client = createPetClient(baseUrl, 'sandbox-pro-key')
  const invalid = await client.POST('/pets', { body: { name: '', categoryId: 1 } })
  assert.equal(invalid.response.status, 400)
  assert.equal(invalid.error?.code, 'validation_failed')
  assert.match(invalid.error?.message ?? '', /name/)

  const created = await client.POST('/pets', {
    body: { name: 'Biscuit', categoryId: 2, status: 'available' },
  })
  assert.equal(created.response.status, 201)
  assert.equal(created.data?.name, 'Biscuit')
  const read = await client.GET('/pets/{petId}', {
    params: { path: { petId: created.data!.id } },
  })
  assert.deepEqual(read.data, created.data)
})

test('the control client calls /__sandbox at the root, not under /v1: a reset undoes a create', async () => {
  const api = createPetClient(baseUrl, 'sandbox-pro-key')
  const control = createControlClient(new URL(baseUrl).origin)
  const created = await api.POST('/pets', { body: { name: 'Temporary', categoryId: 1 } })
  assert.equal(created.response.status, 201)

  const reset = await control.POST('/__sandbox/reset')
  assert.equal(reset.response.url, `${new URL(baseUrl).origin}/__sandbox/reset`)
  assert.equal(reset.response.status, 200)
  const state: SandboxState | undefined = reset.data
  assert.equal(state?.session, 'default')

  const gone = await api.GET('/pets/{petId}', {
    params: { path: { petId: created.data!.id } },
  })
  assert.equal(gone.response.status, 404)
  const { data } = await control.GET('/__sandbox')
  assert.equal(data?.counts.pets, state?.counts.pets)
})

test("the control API's document served by the server names its root", async () => {
  const origin = new URL(baseUrl).origin
  const served = (await (await fetch(`${origin}/__sandbox/openapi.json`)).json()) as {
    servers: { url: string }[]
  }
  assert.deepEqual(
    served.servers.map((server) => server.url),
    [origin],
  )
})

test('the types refuse what the API refuses', () => {
  const client = createPetClient(baseUrl, 'sandbox-free-key')
  // Compile-time checks only (tsc --strict fails if any of these compiles).
  const unused = () => {
    // @ts-expect-error limit is an integer, not a string
    void client.GET('/pets', { params: { query: { limit: 'ten' } } })
    // @ts-expect-error a NewPet needs a name
    void client.POST('/pets', { body: { categoryId: 1 } })
    // @ts-expect-error there is no DELETE /pets/{petId} in v1
    void client.DELETE('/pets/{petId}', { params: { path: { petId: 1 } } })
    // @ts-expect-error the API's document has no control paths (they are in their own)
    void client.POST('/__sandbox/reset')
    const control = createControlClient('http://127.0.0.1:4010')
    // @ts-expect-error nor the control document the API's
    void control.GET('/pets')
  }
  assert.equal(typeof unused, 'function')
})
