import * as z from 'zod'

/** The availability statuses of the seed's PetStatus enumeration, in its order. */
export const PET_STATUSES = ['available', 'pending', 'sold'] as const

/** Largest id or categoryId the sandbox accepts: JSON numbers past 2^53 lose digits. */
export const MAX_SAFE_ID = Number.MAX_SAFE_INTEGER

export const petStatusSchema = z.enum(PET_STATUSES)

const positiveId = z.number().int().positive().max(MAX_SAFE_ID)

/** NewPet: the request body of createPet. Unknown fields are stripped, never stored. */
export const newPetSchema = z.object({
  name: z.string().min(1),
  categoryId: positiveId,
  status: petStatusSchema.optional(),
})

/** Pet: NewPet plus the id the sandbox assigns (first, so bodies read id first). */
export const petSchema = z.object({ id: positiveId, ...newPetSchema.shape })

/** The Error body every failed response carries. */
export const apiErrorSchema = z.object({
  code: z.string(),
  message: z.string(),
  status: z.number().int(),
})

/** One of `available`, `pending`, `sold`. */
export type PetStatus = z.infer<typeof petStatusSchema>
/** The body of `POST /v1/pets`. */
export type NewPet = z.infer<typeof newPetSchema>
/** An animal as the API returns it. */
export type Pet = z.infer<typeof petSchema>
/** The body of every error response: `{ code, message, status }`. */
export type ApiError = z.infer<typeof apiErrorSchema>
