// Lints the two OpenAPI documents (the API's and the control API's) with Spectral
// (.spectral.js) and Redocly (redocly.yaml). Without an argument it lints what the
// sources give (src/openapi, bundled in memory, so no build is needed first);
// `node scripts/lint-openapi.js dist/openapi.json dist/control-openapi.json` lints files
// (`--dist` both shipped ones). Exits 1 on any error or warning, printing each as
// "file:line:col severity rule message".
import { readFileSync } from 'node:fs'
import { resolve } from 'node:path'
import { build } from 'esbuild'
import { Document, Ruleset, Spectral } from '@stoplight/spectral-core'
import Parsers from '@stoplight/spectral-parsers'
import { lintFromString, loadConfig } from '@redocly/openapi-core'
import ruleset from '../.spectral.js'

const started = performance.now()
const SHIPPED = { openapi: 'dist/openapi.json', control: 'dist/control-openapi.json' }
const args = process.argv.slice(2)
const files = args[0] === '--dist' ? Object.values(SHIPPED) : args
// From the sources, each document is linted as the file it becomes.
const documents = files.length
  ? files.map((file) => ({
      name: file,
      source: resolve(file),
      text: readFileSync(file, 'utf8'),
    }))
  : Object.entries(await documentsFromSources()).map(([key, text]) => ({
      name: `${SHIPPED[key].slice('dist/'.length)} (src/openapi)`,
      source: resolve(SHIPPED[key]),
      text,
    }))

let failures = 0
for (const { name, source, text } of documents) {
  const problems = [...(await spectral(text, source)), ...(await redocly(text, source))]
  failures += problems.filter(
    ({ severity }) => severity === 'error' || severity === 'warning',
  ).length
  for (const problem of problems) {
    console.log(
      `${name}${problem.where} ${problem.severity} ${problem.tool}/${problem.rule}: ${problem.message}`,
    )
  }
}
const seconds = ((performance.now() - started) / 1000).toFixed(1)
const names = documents.map(({ name }) => name).join(', ')
if (failures > 0) {
  console.error(
    `lint:openapi: ${failures} error(s) or warning(s) in ${names} (${seconds} s). Fix the documents' sources in src/openapi or src/core/common/schemas.ts.`,
  )
  process.exit(1)
}
console.log(
  `lint:openapi: Spectral and Redocly found no errors or warnings in ${names} (${seconds} s).`,
)

async function documentsFromSources() {
  const result = await build({
    stdin: {
      contents:
        "import { createControlOpenApiDocument, createOpenApiDocument } from './src/openapi/create-openapi-document.ts'\nexport default { openapi: JSON.stringify(createOpenApiDocument(), null, 2), control: JSON.stringify(createControlOpenApiDocument(), null, 2) }",
      resolveDir: process.cwd(),
      loader: 'ts',
    },
    bundle: true,
    format: 'esm',
    platform: 'node',
    write: false,
    logLevel: 'error',
  })
  const code = result.outputFiles[0].text
  const module = await import(
    `data:text/javascript;base64,${Buffer.from(code).toString('base64')}`
  )
  return module.default
}

async function spectral(text, source) {
  const linter = new Spectral()
  linter.setRuleset(
    new Ruleset(ruleset, { severity: 'recommended', source: resolve('.spectral.js') }),
  )
  const results = await linter.run(new Document(text, Parsers.Json, source))
  const severities = ['error', 'warning', 'info', 'hint']
  return results.map((result) => ({
    tool: 'spectral',
    rule: result.code,
    severity: severities[result.severity],
    message: `${result.message} (at ${result.path.join('.')})`,
    where: `:${result.range.start.line + 1}:${result.range.start.character + 1}`,
  }))
}

async function redocly(text, source) {
  const config = await loadConfig({ configPath: resolve('redocly.yaml') })
  const problems = await lintFromString({
    source: text,
    absoluteRef: source,
    config,
  })
  return problems
    .filter(({ ignored }) => !ignored)
    .map((problem) => ({
      tool: 'redocly',
      rule: problem.ruleId,
      severity: problem.severity === 'warn' ? 'warning' : problem.severity,
      message: `${problem.message} (at ${problem.location[0]?.pointer ?? '#/'})`,
      where: '',
    }))
}
