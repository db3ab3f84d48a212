import { fail, forcedFailure, type Failure } from '../http/api-errors.js'
import { GET_PET_SUNSET } from './deprecation.js'
import type { Answer } from '../http/router.js'
import type { ApiCall } from './api-call.js'
import type { Operation } from '../scenarios/scenarios.js'
import { howToLeave } from './auth.js'
import { bodyTypeRefused } from '../http/media-type.js'
import { validateListQuery, validateNewPet, validatePetId } from './validation.js'

const UTF8 = new TextDecoder('utf-8', { fatal: true })

/** `GET /pets`: up to `limit` pets in id order, optionally of one status. */
export async function listPets(call: ApiCall): Promise<Answer> {
  const { url, dataset } = call
  const query = validateListQuery(url.searchParams)
  if (!query.ok) return fail('validation_failed', query.message)
  const forced = forcedError(call, 'listPets')
  if (forced) return forced
  return { status: 200, body: (await dataset()).list(query.value) }
}

/** `POST /pets`: a NewPet in, the stored Pet (with its id) out. */
export async function createPet(call: ApiCall): Promise<Answer> {
  const { request, dataset, body } = call
  const bytes = await body()
  const refused = bodyTypeRefused(request.headers.get('content-type'), bytes.length > 0)
  if (refused) return refused
  let text: string
  try {
    // JSON is UTF-8 (RFC 8259): undecodable bytes would be stored as U+FFFD.
    text = UTF8.decode(bytes)
  } catch {
    return fail(
      'invalid_json',
      'The body is not valid UTF-8, so it is not valid JSON. Send the JSON text encoded as UTF-8, e.g. {"name":"Rex","categoryId":1}.',
    )
  }
  if (text.trim().length === 0) {
    return fail(
      'validation_failed',
      'Invalid body: a NewPet is required, e.g. {"name":"Rex","categoryId":1,"status":"available"}.',
    )
  }
  let parsed: unknown
  try {
    parsed = JSON.parse(text)
  } catch {
    // Our own words, not the engine's JSON.parse message, which differs between Node
    // and browsers: every runtime answers alike.
    return fail(
      'invalid_json',
      'The body is not valid JSON (check quotes, commas and brackets). Send a JSON object such as {"name":"Rex","categoryId":1}.',
    )
  }
  const pet = validateNewPet(parsed)
  if (!pet.ok) return fail('validation_failed', pet.message)
  const forced = forcedError(call, 'createPet')
  if (forced) return forced
  // A full quota or a store that cannot write throws its own code (failureOf).
  return { status: 201, body: await (await dataset()).create(pet.value) }
}

/** `GET /pets/{petId}` (deprecated): one pet, 410 once the clock passes the sunset. */
export async function getPet(call: ApiCall): Promise<Answer> {
  const { world, params, apiBase, dataset } = call
  // Removed means removed, whatever the id: the sunset comes before validation.
  if (world.clock.now() >= GET_PET_SUNSET) {
    return fail(
      'endpoint_removed',
      `GET ${apiBase}/pets/{petId} was removed on 5 December 2030 (see the Sunset header). Use GET ${apiBase}/pets with the status filter instead.`,
    )
  }
  const id = validatePetId(params.petId as string)
  if (!id.ok) return fail('validation_failed', id.message)
  const forced = forcedError(call, 'getPet')
  if (forced) return forced
  const pet = (await dataset()).get(id.value)
  if (!pet) {
    return fail(
      'not_found',
      `No pet with id ${id.value}. List the existing ones with GET ${apiBase}/pets.`,
    )
  }
  return { status: 200, body: pet }
}

/** The failure a scenario forces on an operation (after validation, before the data). */
function forcedError(
  { scenario, key, world }: ApiCall,
  operation: Operation,
): Failure | undefined {
  const forced = scenario.errors?.[operation] ?? scenario.errors?.['*']
  if (!forced) return undefined
  return forcedFailure(
    forced.status,
    forced.code,
    forced.message ??
      (forced.code === 'not_found' && operation === 'getPet'
        ? `No pet with that id (scenario "${scenario.name}" answers 404 for every id); ${howToLeave(scenario, key, world.sessionId)}.`
        : `Forced by the scenario "${scenario.name}" (${forced.code}).`),
  )
}
