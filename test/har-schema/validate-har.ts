import { readdirSync, readFileSync } from 'node:fs'
import { Ajv, type ErrorObject } from 'ajv'
import addFormatsModule from 'ajv-formats'
import draft06 from 'ajv/dist/refs/json-schema-draft-06.json' with { type: 'json' }

const addFormats = addFormatsModule as unknown as (ajv: Ajv) => void

const folder = new URL('./', import.meta.url)

/**
 * The HAR 1.2 schema (har-schema 2.0.0, draft-06) compiled once: `validateHar(har)`
 * returns ajv's errors, an empty list for a valid HAR.
 */
function compile() {
  // har-schema has keywords of its own ("optional", "min"): not strict.
  const ajv = new Ajv({ strict: false, allErrors: true })
  ajv.addMetaSchema(draft06)
  addFormats(ajv)
  for (const file of readdirSync(folder).filter((name) => name.endsWith('.json'))) {
    ajv.addSchema(JSON.parse(readFileSync(new URL(file, folder), 'utf8')) as object)
  }
  return ajv.getSchema('har.json#')
}

const validate = compile()

export function validateHar(har: unknown): ErrorObject[] {
  if (!validate) throw new Error('har.json# is not among the schemas of test/har-schema')
  return validate(har) ? [] : [...(validate.errors ?? [])]
}
