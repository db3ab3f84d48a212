import { API_ERROR_STATUS, type ApiErrorCode } from '../core/http/api-errors.js'
import type { Json } from './doc-parts.js'

// Each error response of the documents carries an example of its own whose `status` is
// the response's: a tool that mocks from the document (Prism) answers the example, and
// the Error schema's one example (a 404) under a 400 would say the wrong status.

/** A message as the sandbox would write it, for the codes the documents' responses name. */
const MESSAGES: Partial<Record<ApiErrorCode, string>> = {
  missing_api_key:
    'No API key was sent. Send "Authorization: Bearer sandbox-free-key" (demo keys: GET /__sandbox).',
  rate_limit_exceeded:
    'Rate limit exceeded: 60 requests per minute on the free plan. Retry after 42 seconds (Retry-After).',
  validation_failed:
    'limit must be an integer from 1 to 100, got "0" (leave it out for the default 20).',
  invalid_path:
    'Invalid path: the path holds a malformed percent-escape. Send it as UTF-8, percent-encoded.',
  not_found: 'No pet with id 9. List the pets with GET /v1/pets.',
  method_not_allowed: 'DELETE is not allowed on /v1/pets. Allowed: GET, HEAD, POST.',
  endpoint_removed:
    'GET /v1/pets/{petId} was removed on 5 December 2030. Use GET /v1/pets with the status filter.',
  payload_too_large: 'The body is over the limit of 1 MB. Send a smaller body.',
  unsupported_media_type:
    'The body must be application/json, got text/plain. Send "Content-Type: application/json".',
  not_implemented:
    'GET /v1/store/orders is mentioned by the API but its shape is not published, so the sandbox does not model it.',
  service_unavailable: 'The service is unavailable (a scenario forces it). Retry later.',
}

/** The code of a status when its response names none of its own. */
const FALLBACK: Record<number, ApiErrorCode> = {
  400: 'validation_failed',
  401: 'missing_api_key',
  403: 'forbidden_origin',
  404: 'not_found',
  405: 'method_not_allowed',
  409: 'session_exists',
  413: 'payload_too_large',
  415: 'unsupported_media_type',
  429: 'rate_limit_exceeded',
  501: 'not_implemented',
  503: 'service_unavailable',
  507: 'storage_failed',
}

/** The codes a response's description names, as `(code)` or `400 code`. */
const codesIn = (text: string) =>
  [...text.matchAll(/\(([a-z]+(?:_[a-z]+)+)\)|\b\d{3} ([a-z]+(?:_[a-z]+)+)\b/g)].map(
    (match) => (match[1] ?? match[2]) as string,
  )

/**
 * The Error body an error response of `status` shows: the first code its description
 * names with that status (else the status's usual code), and `status` itself.
 */
export function errorExample(status: number, description: string) {
  const named = codesIn(description).find(
    (code) => API_ERROR_STATUS[code as ApiErrorCode] === status,
  ) as ApiErrorCode | undefined
  const code = named ?? FALLBACK[status] ?? 'bad_request'
  const message =
    MESSAGES[code] ?? `${code.replaceAll('_', ' ')} (see the response's description).`
  return { code, message, status }
}

const ERROR_REF = '#/components/schemas/Error'

/**
 * `response` with an example Error body of `status` on its JSON content, when that
 * content is the Error schema and has no example yet; any other response unchanged.
 */
export function withErrorExample(status: number, response: Json): Json {
  const content = response.content as Record<string, Json> | undefined
  const media = content?.['application/json']
  const schema = media?.schema as Json | undefined
  if (!media || schema?.$ref !== ERROR_REF || media.example !== undefined) return response
  return {
    ...response,
    content: {
      ...content,
      'application/json': {
        ...media,
        example: errorExample(status, String(response.description ?? '')),
      },
    },
  }
}
