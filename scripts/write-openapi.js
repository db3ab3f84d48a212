// Writes the package's two OpenAPI documents from the built generator, so the shipped
// documents are what the zod schemas and the route table give: dist/openapi.json (the
// API, `petstore-sandbox/openapi.json`) and dist/control-openapi.json (the control API,
// `petstore-sandbox/control-openapi.json`, whose server is `/`).
import { writeFileSync } from 'node:fs'
import {
  createControlOpenApiDocument,
  createOpenApiDocument,
} from '../dist/openapi/create-openapi-document.js'

for (const [file, document] of [
  ['dist/openapi.json', createOpenApiDocument()],
  ['dist/control-openapi.json', createControlOpenApiDocument()],
]) {
  writeFileSync(file, `${JSON.stringify(document, null, 2)}\n`)
}
