import { fail, Failure } from '../http/api-errors.js'
import { SandboxError } from '../common/errors.js'
import type { Answer } from '../http/router.js'
import type { ControlCall } from './control-call.js'
import { MAX_SESSION_IMPORT_BYTES } from '../common/limits.js'
import { CONTROL_PATH } from './control-call.js'
import {
  checkSessionExportInSlices,
  SESSION_EXPORT_FIX,
} from '../coach/session-import.js'
import { thousands } from '../common/text.js'

// The control operations that carry a session out (`GET /__sandbox/export`,
// `GET /__sandbox/requests.har`) and in (`POST /__sandbox/sessions` with `from`).

/**
 * `GET /__sandbox/export`: the session the request names, as `petstore-sandbox/session@1`.
 * Like every control read, a session that is not live is exported as it would start
 * (and is not made by the read).
 */
export async function exportSession({
  carrying,
  session,
  reserve,
}: ControlCall): Promise<Answer> {
  // Built in slices, once the server has room for its size.
  const text = await carrying.exportTextOf(session(), reserve)
  return text instanceof Failure ? text : { status: 200, body: text }
}

/** `GET /__sandbox/requests.har`: its journal as HAR 1.2, on the request's own origin. */
export async function exportHar({
  carrying,
  session,
  url,
  reserve,
}: ControlCall): Promise<Answer> {
  const text = await carrying.harTextOf(session(), url.origin, reserve)
  return text instanceof Failure ? text : { status: 200, body: text }
}

/**
 * The import of `POST /__sandbox/sessions {"id", "from"}`, once the id is known to be a
 * session id other than the default one: 201 with the session, 409 `session_exists`
 * when it is live, 400 `validation_failed` naming the field of `from`.
 */
export async function importSession(
  { sandbox, carrying }: ControlCall,
  id: string,
  from: unknown,
): Promise<{ created: true } | Failure> {
  const exists = () =>
    sandbox.sessions().some((session) => session.id === id) &&
    fail(
      'session_exists',
      `A session "${id}" is live: an import makes a new session. End it first with DELETE /__sandbox/sessions/${id}, or import under another id.`,
    )
  const live = exists()
  if (live) return live
  // In slices: other requests are answered meanwhile.
  const checked = await checkSessionExportInSlices(from, {
    root: 'from',
    maxPets: carrying.maxPets,
  })
  if (!checked.ok) {
    return fail(
      'validation_failed',
      `Invalid body: ${checked.message}. ${SESSION_EXPORT_FIX}`,
    )
  }
  // Another import of that id (or a request naming it) may have made it meanwhile.
  const made = exists()
  if (made) return made
  const { scenario, scenarios } = checked.value
  const taken = scenarios.findIndex(({ name }) => sandbox.scenarios.has(name))
  if (taken !== -1) {
    return fail(
      'validation_failed',
      `Invalid body: from.scenarios[${taken}].name "${scenarios[taken]?.name}" is a scenario loaded in this sandbox, which a session cannot define. Rename it in the export (and from.scenario if it is the one selected).`,
    )
  }
  if (
    !sandbox.scenarios.has(scenario) &&
    !scenarios.some(({ name }) => name === scenario)
  ) {
    return fail(
      'validation_failed',
      `Invalid body: from.scenario "${scenario.slice(0, 60)}" is not loaded in this sandbox, nor defined in from.scenarios. Start the sandbox with that scenario loaded (--scenario ./${scenario.slice(0, 60)}.json), then import again.`,
    )
  }
  try {
    await carrying.importChecked(id, checked.value, 'the body')
  } catch (error) {
    // What only the import can tell (a carried scenario this sandbox refuses).
    if (!(error instanceof SandboxError)) throw error
    return fail('validation_failed', `Invalid body: ${error.message}`)
  }
  return { created: true }
}

/**
 * The most body a server adapter reads of a request: `limit` (its own, 64 KiB by
 * default), or 16 MiB for `POST /__sandbox/sessions`, which may carry an export.
 */
export function bodyLimitOf(method: string, pathname: string, limit: number): number {
  return isImport(method, pathname) ? Math.max(limit, MAX_SESSION_IMPORT_BYTES) : limit
}

/** The 413 of a body over `bodyLimitOf(method, pathname, limit)`, saying what to send instead. */
export function bodyTooLarge(method: string, pathname: string, limit: number): Failure {
  const hint = isImport(method, pathname)
    ? 'A session export imports without its "journal" field: leave it out to make the body smaller.'
    : pathname === CONTROL_PATH || pathname.startsWith(`${CONTROL_PATH}/`)
      ? 'Control requests take small JSON bodies: a scenario seeds many pets with "data": {"count": 1000} rather than listing them in "data.pets".'
      : 'A NewPet such as {"name":"Rex","categoryId":1} is well under 1 KiB.'
  return fail(
    'payload_too_large',
    `The request body is larger than the sandbox accepts (${thousands(bodyLimitOf(method, pathname, limit))} bytes). ${hint}`,
  )
}

function isImport(method: string, pathname: string) {
  return method === 'POST' && pathname === `${CONTROL_PATH}/sessions`
}
