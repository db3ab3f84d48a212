import * as z from 'zod/mini'
import { MAX_NAME_LENGTH } from './limits.js'

/** The availability statuses of the seed's PetStatus enumeration, in its order. */
export const PET_STATUSES = ['available', 'pending', 'sold'] as const

/** Largest id or categoryId the sandbox accepts: JSON numbers past 2^53 lose digits. */
export const MAX_SAFE_ID = Number.MAX_SAFE_INTEGER

// The `z.meta()` checks below only feed the OpenAPI document (zod's JSON Schema output):
// they change no parsing.

export const petStatusSchema = z
  .enum(PET_STATUSES)
  .check(z.meta({ description: 'Availability status of an animal.' }))

const positiveId = z
  .number()
  .check(z.int(), z.positive(), z.lte(MAX_SAFE_ID), z.meta({ format: 'int64' }))

/** NewPet: the request body of createPet. Unknown fields are stripped, never stored. */
export const newPetSchema = z
  .object({
    name: z.string().check(
      z.minLength(1),
      z.maxLength(MAX_NAME_LENGTH),
      z.meta({
        description: `The animal's name, 1 to ${MAX_NAME_LENGTH} characters (a limit of the sandbox).`,
        examples: ['Rex'],
      }),
    ),
    categoryId: positiveId.check(
      z.meta({
        description: 'Identifier of the category the animal belongs to.',
        examples: [1],
      }),
    ),
    status: z.optional(petStatusSchema),
  })
  .check(
    z.meta({
      description:
        'An animal to add. Without a status, the Pet has none (the API states no default). Unknown fields are ignored.',
      examples: [{ name: 'Rex', categoryId: 1, status: 'available' }],
    }),
  )

/** Pet: NewPet plus the id the sandbox assigns (first, so bodies read id first). */
export const petSchema = z
  .object({
    id: positiveId.check(
      z.meta({
        description: 'Unique identifier assigned by the service on creation.',
        examples: [1],
      }),
    ),
    ...newPetSchema.shape,
  })
  .check(
    z.meta({
      description: 'An animal as returned: the fields of NewPet plus its id.',
      examples: [{ id: 1, name: 'Rex', categoryId: 1, status: 'available' }],
    }),
  )

/** The Error body every failed response carries. */
export const apiErrorSchema = z
  .object({
    code: z.string().check(z.meta({ description: 'Machine-readable error code.' })),
    message: z
      .string()
      .check(
        z.minLength(1),
        z.meta({ description: 'What was wrong and how to fix it, for people.' }),
      ),
    status: z
      .number()
      .check(
        z.int(),
        z.gte(400),
        z.lte(599),
        z.meta({ description: 'The HTTP status code of the response.' }),
      ),
  })
  .check(
    z.meta({
      description: 'The body of every error response.',
      examples: [{ code: 'not_found', message: 'No pet with id 9.', status: 404 }],
    }),
  )

/** One of `available`, `pending`, `sold`. */
export type PetStatus = z.infer<typeof petStatusSchema>
/** The body of `POST /v1/pets`. */
export type NewPet = z.infer<typeof newPetSchema>
/** An animal as the API returns it. */
export type Pet = z.infer<typeof petSchema>
/** The body of every error response: `{ code, message, status }`. */
export type ApiError = z.infer<typeof apiErrorSchema>
