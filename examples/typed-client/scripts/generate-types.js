// Types for the two clients from the OpenAPI documents the package ships, so they
// follow the installed sandbox: the API's (`petstore-sandbox/openapi.json`) into
// src/schema.d.ts, the control API's (`petstore-sandbox/control-openapi.json`) into
// src/control-schema.d.ts.
import { writeFileSync } from 'node:fs'
import openapiTS, { astToString } from 'openapi-typescript'

for (const [name, file] of [
  ['petstore-sandbox/openapi.json', 'schema.d.ts'],
  ['petstore-sandbox/control-openapi.json', 'control-schema.d.ts'],
]) {
  const document = new URL(import.meta.resolve(name))
  const ast = await openapiTS(document)
  writeFileSync(new URL(`../src/${file}`, import.meta.url), astToString(ast))
  console.log(`src/${file} written from ${document.pathname}`)
}
