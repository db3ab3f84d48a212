// Types for the client from the OpenAPI document the package ships
// (`petstore-sandbox/openapi.json`), so they follow the installed sandbox.
import { writeFileSync } from 'node:fs'
import openapiTS, { astToString } from 'openapi-typescript'

const document = new URL(import.meta.resolve('petstore-sandbox/openapi.json'))
const ast = await openapiTS(document)
writeFileSync(new URL('../src/schema.d.ts', import.meta.url), astToString(ast))
console.log(`src/schema.d.ts written from ${document.pathname}`)
