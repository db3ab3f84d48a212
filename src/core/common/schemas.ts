import * as z from 'zod/mini'
import { MAX_NAME_LENGTH } from './limits.js'

/** The availability statuses of the seed's PetStatus enumeration, in its order. */
export const PET_STATUSES = ['available', 'pending', 'sold'] as const

/** Largest id or categoryId the sandbox accepts: JSON numbers past 2^53 lose digits. */
export const MAX_SAFE_ID = Number.MAX_SAFE_INTEGER

// What the OpenAPI document says of these schemas (descriptions, examples, the int64
// format) is given to them in src/openapi/component-schemas.ts, not here: zod's
// `z.meta()` changes no parsing, and its words were weight the browser entry carried.

export const petStatusSchema = z.enum(PET_STATUSES)

/** A positive integer id; a new schema each call, so each field has its own description. */
const positiveId = () => z.number().check(z.int(), z.positive(), z.lte(MAX_SAFE_ID))

/** NewPet: the request body of createPet. Unknown fields are stripped, never stored. */
export const newPetSchema = z.object({
  name: z.string().check(z.minLength(1), z.maxLength(MAX_NAME_LENGTH)),
  categoryId: positiveId(),
  status: z.optional(petStatusSchema),
})

/** Pet: NewPet plus the id the sandbox assigns (first, so bodies read id first). */
export const petSchema = z.object({ id: positiveId(), ...newPetSchema.shape })

/** The Error body every failed response carries. */
export const apiErrorSchema = z.object({
  code: z.string(),
  message: z.string().check(z.minLength(1)),
  status: z.number().check(z.int(), z.gte(400), z.lte(599)),
})

/** One of `available`, `pending`, `sold`. */
export type PetStatus = z.infer<typeof petStatusSchema>
/** The body of `POST /v1/pets`. */
export type NewPet = z.infer<typeof newPetSchema>
/** An animal as the API returns it. */
export type Pet = z.infer<typeof petSchema>
/** The body of every error response: `{ code, message, status }`. */
export type ApiError = z.infer<typeof apiErrorSchema>
