import { fail, Failure } from '../http/api-errors.js'
import { decodeParam } from '../http/request-target.js'
import { readJson } from './control-operations.js'
import type { Answer } from '../http/router.js'
import type { ControlCall } from './control-call.js'
import type { Scenario } from '../scenarios/scenarios.js'

// Scenarios defined at run time (CONTRACT "Scenarios defined at run time"): per session,
// validated like scenario files, cleared by a reset, gone with the session.

/** `PUT /__sandbox/scenarios/{name}`: defines or replaces a scenario of the session. */
export async function putDefinedScenario(call: ControlCall): Promise<Answer> {
  const name = decodeParam('name', call.params.name ?? '')
  if (name instanceof Failure) return name
  const body = await readJson(call)
  if (body instanceof Failure) return body
  const value = body.value
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    return fail(
      'validation_failed',
      `Invalid body: a scenario object is required, e.g. {"description":"getPet fails","errors":{"getPet":{"status":503,"code":"service_unavailable"}}}.`,
    )
  }
  const given = (value as { name?: unknown }).name
  if (given !== undefined && given !== name) {
    return fail(
      'validation_failed',
      `Invalid body: name ${JSON.stringify(String(given).slice(0, 60))} differs from the path's ${JSON.stringify(name.slice(0, 60))}. Leave name out, or send the same one.`,
    )
  }
  const definition = { ...value, name } as Scenario
  // A mistake throws a SandboxError naming the field: 400 validation_failed (failureOf).
  const { scenario, created } = call
    .session()
    .defineScenario(definition, `PUT /__sandbox/scenarios/${name.slice(0, 60)}`)
  return { status: created ? 201 : 200, body: scenario }
}

/** `DELETE /__sandbox/scenarios/{name}`: removes one the session defined at run time. */
export function deleteDefinedScenario(call: ControlCall): Answer {
  const name = decodeParam('name', call.params.name ?? '')
  if (name instanceof Failure) return name
  const world = call.session()
  if (world.removeScenario(name)) return { status: 204, body: null }
  const loaded = world.registry.has(name)
  return fail(
    loaded ? 'validation_failed' : 'not_found',
    loaded
      ? `The scenario "${name.slice(0, 60)}" is built in or loaded at start, not defined at run time, so it cannot be deleted. Switch away from it with PUT /__sandbox/scenario {"name":"default"}.`
      : `The session defines no scenario ${JSON.stringify(name.slice(0, 60))} at run time. The scenarios it defined are listed by GET /__sandbox (scenarios).`,
  )
}
