import { fail, type Failure } from './api-errors.js'
import { truncate } from '../common/text.js'

// The one judge of a request body's Content-Type, for /v1 and the control API, in every
// runtime (the standalone server's guard asks it too, before it reads a control body).

/** The subject of a control request's 415 (`bodyTypeRefused`). */
export const CONTROL_BODY = "A control request's body"

/**
 * Whether a Content-Type names a JSON body: `application/json` (the type is
 * case-insensitive), with or without parameters such as `charset`. Nothing else, `+json`
 * types such as `application/merge-patch+json` included: the real API takes only
 * `application/json`, and a client that sends another type would fail against it.
 */
export function isJsonMediaType(contentType: string | null | undefined): boolean {
  if (contentType === null || contentType === undefined) return false
  const semicolon = contentType.indexOf(';')
  const type = semicolon === -1 ? contentType : contentType.slice(0, semicolon)
  return type.trim().toLowerCase() === 'application/json'
}

/**
 * The 415 for a body that is not `application/json`, or undefined when there is no body
 * (`hasBody` false: any Content-Type is fine then) or it is JSON. The message says what
 * was sent and what is expected.
 */
export function bodyTypeRefused(
  contentType: string | null | undefined,
  hasBody: boolean,
  subject = 'The body',
): Failure | undefined {
  if (!hasBody || isJsonMediaType(contentType)) return undefined
  const expected =
    'Send the JSON with "Content-Type: application/json" (parameters such as "; charset=utf-8" are fine)'
  if (contentType === null || contentType === undefined || contentType.trim() === '') {
    return fail(
      'unsupported_media_type',
      `${subject} must be JSON with "Content-Type: application/json", but the request has no Content-Type. ${expected}.`,
    )
  }
  const sent = JSON.stringify(truncate(contentType.trim(), 60))
  const type = contentType.split(';', 1)[0]?.trim().toLowerCase() ?? ''
  const reason = type.endsWith('+json')
    ? ': the API takes only application/json, not other JSON types (+json)'
    : ''
  return fail(
    'unsupported_media_type',
    `${subject} must be JSON with "Content-Type: application/json", got ${sent}${reason}. ${expected}.`,
  )
}
