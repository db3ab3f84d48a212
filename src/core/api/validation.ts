import {
  newPetSchema,
  PET_STATUSES,
  type NewPet,
  type PetStatus,
} from '../common/schemas.js'
import { describeIssues, typeName } from '../common/describe-issues.js'
import { truncate } from '../common/text.js'

export type Validated<T> = { ok: true; value: T } | { ok: false; message: string }

const STATUS_LIST = PET_STATUSES.join(', ')

/** Validates the query of listPets: `limit` 1..100 (default 20), `status` a PetStatus. */
export function validateListQuery(
  params: URLSearchParams,
): Validated<{ limit: number; status?: PetStatus }> {
  const problems: string[] = []
  const limits = params.getAll('limit')
  const statuses = params.getAll('status')
  let limit = 20
  let status: PetStatus | undefined
  if (limits.length > 1)
    problems.push(`limit must be given once, got ${limits.length} values`)
  else if (limits.length === 1) {
    const raw = limits[0] as string
    const parsed = /^\d+$/.test(raw) ? Number(raw) : Number.NaN
    if (!(parsed >= 1 && parsed <= 100)) {
      problems.push(
        `limit must be an integer from 1 to 100, got ${JSON.stringify(truncate(raw))} (leave it out for the default 20)`,
      )
    } else limit = parsed
  }
  if (statuses.length > 1) {
    problems.push(
      `status must be given once, got ${statuses.length} values (one status per request)`,
    )
  } else if (statuses.length === 1) {
    const raw = statuses[0] as string
    if ((PET_STATUSES as readonly string[]).includes(raw)) status = raw as PetStatus
    else
      problems.push(
        `status must be one of ${STATUS_LIST}, got ${JSON.stringify(truncate(raw))}`,
      )
  }
  if (problems.length > 0)
    return { ok: false, message: `Invalid query: ${problems.join('; ')}.` }
  return { ok: true, value: status === undefined ? { limit } : { limit, status } }
}

/** Validates the `petId` path segment: a positive integer no larger than 2^53 - 1. */
export function validatePetId(raw: string): Validated<number> {
  const decoded = safeDecode(raw)
  if (/^-?\d+$/.test(decoded)) {
    const value = Number(decoded)
    if (Number.isSafeInteger(value)) return { ok: true, value }
    return {
      ok: false,
      message: `Invalid path: petId ${truncate(decoded)} is past 2^53 - 1; ids are integers the sandbox can represent exactly, up to ${Number.MAX_SAFE_INTEGER}.`,
    }
  }
  return {
    ok: false,
    message: `Invalid path: petId must be an integer, got ${JSON.stringify(truncate(decoded))}. Example: GET /v1/pets/1.`,
  }
}

function safeDecode(raw: string) {
  try {
    return decodeURIComponent(raw)
  } catch {
    return raw
  }
}

/** Validates a parsed createPet body as a NewPet; unknown fields are dropped. */
export function validateNewPet(body: unknown): Validated<NewPet> {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    return {
      ok: false,
      message: `Invalid body: the body must be a JSON object (NewPet), got ${typeName(body)}. Example: {"name":"Rex","categoryId":1,"status":"available"}.`,
    }
  }
  const parsed = newPetSchema.safeParse(body, { reportInput: true })
  if (!parsed.success) {
    return {
      ok: false,
      message: `Invalid body: ${describeIssues(parsed.error.issues, 'body', newPetSchema)}.`,
    }
  }
  return { ok: true, value: parsed.data }
}
