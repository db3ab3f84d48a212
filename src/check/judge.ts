import { apiErrorSchema, petSchema, PET_STATUSES } from '../core/common/schemas.js'
import { curlOf, type Answer, type ProbeRequest, type Seen } from './probe.js'

// What a check concludes from what it saw: its result line. The shapes are the
// sandbox's own definitions (src/core/common/schemas.ts), the ones the OpenAPI document
// is written from.

/** What a check holds the server to: the API document, or a decision of the sandbox. */
export type Holds = 'document' | 'decision'

/** One check's outcome. */
export interface CheckResult {
  /** What is checked, in words. */
  name: string
  /** `document`: what the API document states; `decision`: what the sandbox decided where it is silent (a failure is drift from the sandbox). */
  holds: Holds
  status: 'passed' | 'failed' | 'skipped'
  /** What the server should have done (failed only). */
  expected?: string
  /** What it did (failed only). */
  seen?: string
  /** A curl that repeats the request, reading the key from `$PETSTORE_SANDBOX_CHECK_KEY` (failed only). */
  repeat?: string
  /** Why the check did not run (skipped only). */
  why?: string
}

export const passed = (name: string, holds: Holds): CheckResult => ({
  name,
  holds,
  status: 'passed',
})

export const skipped = (name: string, holds: Holds, why: string): CheckResult => ({
  name,
  holds,
  status: 'skipped',
  why,
})

export function failed(
  name: string,
  holds: Holds,
  expected: string,
  seen: string,
  repeat?: { baseUrl: string; request: ProbeRequest },
): CheckResult {
  return {
    name,
    holds,
    status: 'failed',
    expected,
    seen,
    ...(repeat ? { repeat: curlOf(repeat.baseUrl, repeat.request) } : {}),
  }
}

/** An answer in a few words: its status, type and the start of its body. */
export function describeAnswer(seen: Seen): string {
  if (!seen.ok) return seen.problem
  const body =
    seen.json === undefined
      ? `${seen.contentType || 'no Content-Type'}${seen.text ? `: ${JSON.stringify(seen.text.slice(0, 80))}` : ''}`
      : JSON.stringify(seen.json).slice(0, 160)
  return `${seen.status}, ${body}`
}

/** Why `value` is not a Pet, or undefined when it is one. */
export function notAPet(value: unknown): string | undefined {
  const parsed = petSchema.safeParse(value)
  if (parsed.success) return undefined
  const issue = parsed.error.issues[0]
  return `not a Pet (${issue?.path.join('.') || 'body'}: ${issue?.message ?? 'invalid'})`
}

/** Why `value` is not a Pet whose `field` is `expected`, or undefined when it is one. */
export function notThePet(
  value: unknown,
  field: 'id' | 'name',
  expected: number | string,
): string | undefined {
  const wrong = notAPet(value)
  if (wrong) return wrong
  const seen = (value as Record<typeof field, unknown>)[field]
  return seen === expected ? undefined : `${field} ${JSON.stringify(seen)}`
}

/** Why `value` is not an Error body of `status`, or undefined when it is one. */
export function notAnError(value: unknown, status: number): string | undefined {
  if (value === undefined) return 'not JSON'
  const parsed = apiErrorSchema.safeParse(value)
  if (!parsed.success) {
    const issue = parsed.error.issues[0]
    return `not an Error body {code, message, status} (${issue?.path.join('.') || 'body'}: ${issue?.message ?? 'invalid'})`
  }
  if (parsed.data.status !== status)
    return `its status field says ${parsed.data.status}, the HTTP status is ${status}`
  return undefined
}

/** The problem with `seen` as an answer of `status` whose JSON `body` passes, or undefined. */
export function problemOf(
  seen: Seen,
  status: number,
  body: (json: unknown, answer: Answer) => string | undefined = () => undefined,
): string | undefined {
  if (!seen.ok) return seen.problem
  if (seen.status !== status) return describeAnswer(seen)
  if (seen.json === undefined)
    return `${seen.status} with ${seen.contentType || 'no Content-Type'} where JSON was expected${seen.text ? `: ${JSON.stringify(seen.text.slice(0, 80))}` : ''}`
  const wrong = body(seen.json, seen)
  return wrong ? `${seen.status}, ${wrong}` : undefined
}

/** Why `json` is not an array of Pets (each passing `each`), or undefined. */
export function notPets(
  json: unknown,
  each: (pet: { status?: string }) => string | undefined = () => undefined,
): string | undefined {
  if (!Array.isArray(json)) return `not an array: ${JSON.stringify(json).slice(0, 80)}`
  for (const [index, pet] of json.entries()) {
    const wrong = notAPet(pet) ?? each(pet as { status?: string })
    if (wrong) return `item ${index}: ${wrong}`
  }
  return undefined
}

export const STATUSES: readonly string[] = PET_STATUSES
