// Writes dist/openapi.json (the package's `./openapi.json`) from the built generator, so
// the shipped document is what the zod schemas and the route table give.
import { writeFileSync } from 'node:fs'
import { createOpenApiDocument } from '../dist/openapi/create-openapi-document.js'

writeFileSync(
  'dist/openapi.json',
  `${JSON.stringify(createOpenApiDocument(), null, 2)}\n`,
)
