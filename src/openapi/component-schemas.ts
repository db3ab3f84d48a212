import * as z from 'zod'
import { API_ERROR_CODES } from '../core/http/api-errors.js'
import {
  apiErrorSchema,
  newPetSchema,
  petSchema,
  petStatusSchema,
} from '../core/common/schemas.js'
import { MAX_NAME_LENGTH } from '../core/common/limits.js'
import { scenarioSchema } from '../core/scenarios/scenarios.js'
import {
  clockChangeSchema,
  clockStateSchema,
  harSchema,
  journalEntrySchema,
  journalSchema,
  reportSchema,
  sandboxStateSchema,
  scenarioStateSchema,
  scenarioSwitchSchema,
  sessionExportSchema,
  sessionInfoSchema,
  sessionKeysSchema,
  sessionListSchema,
  sessionRequestSchema,
} from './control-schemas.js'

/**
 * What the document says of the core's schemas (src/core/common/schemas.ts), given to
 * them here rather than with `z.meta()` in the core, which the browser entry carries.
 */
const CORE_SCHEMA_META: ReadonlyArray<[z.core.$ZodType, Record<string, unknown>]> = [
  [petStatusSchema, { description: 'Availability status of an animal.' }],
  [
    newPetSchema.shape.name,
    {
      description: `The animal's name, 1 to ${MAX_NAME_LENGTH} characters (a limit of the sandbox).`,
      examples: ['Rex'],
    },
  ],
  [
    newPetSchema.shape.categoryId,
    {
      format: 'int64',
      description: 'Identifier of the category the animal belongs to.',
      examples: [1],
    },
  ],
  [
    newPetSchema,
    {
      description:
        'An animal to add. Without a status, the Pet has none (the API states no default). Unknown fields are ignored.',
      examples: [{ name: 'Rex', categoryId: 1, status: 'available' }],
    },
  ],
  [
    petSchema.shape.id,
    {
      format: 'int64',
      description: 'Unique identifier assigned by the service on creation.',
      examples: [1],
    },
  ],
  [
    petSchema,
    {
      description: 'An animal as returned: the fields of NewPet plus its id.',
      examples: [{ id: 1, name: 'Rex', categoryId: 1, status: 'available' }],
    },
  ],
  [apiErrorSchema.shape.code, { description: 'Machine-readable error code.' }],
  [
    apiErrorSchema.shape.message,
    { description: 'What was wrong and how to fix it, for people.' },
  ],
  [apiErrorSchema.shape.status, { description: 'The HTTP status code of the response.' }],
  [
    apiErrorSchema,
    {
      description: 'The body of every error response.',
      examples: [{ code: 'not_found', message: 'No pet with id 9.', status: 404 }],
    },
  ],
]
for (const [schema, meta] of CORE_SCHEMA_META) z.globalRegistry.add(schema, meta)

/** A JSON Schema (2020-12, OpenAPI 3.1's dialect) as zod writes it. */
export type JsonSchema = Record<string, unknown>

/**
 * The document's component schemas, each a zod schema under its name. The API's come
 * from the core (src/core/common/schemas.ts); the control API's from control-schemas.ts.
 */
export const componentRegistry = z.registry<{ id: string }>()
for (const [id, schema] of Object.entries({
  PetStatus: petStatusSchema,
  NewPet: newPetSchema,
  Pet: petSchema,
  Pets: z.array(petSchema).meta({ description: 'A bare array of Pet.' }),
  Error: apiErrorSchema,
  ClockState: clockStateSchema,
  ClockChange: clockChangeSchema,
  ScenarioState: scenarioStateSchema,
  ScenarioSwitch: scenarioSwitchSchema,
  SandboxState: sandboxStateSchema,
  JournalEntry: journalEntrySchema,
  Journal: journalSchema,
  SessionInfo: sessionInfoSchema,
  SessionList: sessionListSchema,
  SessionRequest: sessionRequestSchema,
  SessionKeys: sessionKeysSchema,
  SessionExport: sessionExportSchema,
  Har: harSchema,
  Report: reportSchema,
  Scenario: scenarioSchema,
})) {
  componentRegistry.add(schema, { id })
}

/**
 * How zod writes them. `io: 'input'` describes what a schema accepts: the core's objects
 * strip unknown fields rather than reject them, so no object forbids extra properties
 * (a production Pet may carry a new field), while the strict clock body still does.
 */
export const JSON_SCHEMA_OPTIONS: Parameters<typeof z.toJSONSchema>[1] = {
  target: 'draft-2020-12',
  io: 'input',
  // A scenario's records of plans and keys are own-name records (a custom check): {}.
  unrepresentable: 'any',
  uri: (id) => `#/components/schemas/${id}`,
  override: ({ zodSchema, jsonSchema }) => {
    // The list of codes lives beside the document, not in the core's schema.
    if (zodSchema === apiErrorSchema.shape.code) {
      jsonSchema.description =
        'Machine-readable error code: one of the examples (docs/errors.md#error-codes), or a code a scenario forces. Treat an unknown code by the HTTP status.'
      jsonSchema.examples = [...API_ERROR_CODES]
    }
  },
}

/** zod's JSON Schema of every component, without the `$schema`/`$id` a document does not need. */
export function createComponentSchemas(): Record<string, JsonSchema> {
  const { schemas } = z.toJSONSchema(componentRegistry, JSON_SCHEMA_OPTIONS)
  return Object.fromEntries(
    Object.entries(schemas).map(([id, { $schema: _schema, $id: _id, ...schema }]) => [
      id,
      schema as JsonSchema,
    ]),
  )
}
