import { readFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { expect, test } from 'vitest'
import { FINDING_TITLES } from '../src/browser/inspector-report.js'
import { createControlOpenApiDocument } from '../src/openapi/create-openapi-document.js'
import { FINDING_CODES } from '../src/core/coach/report-card.js'

// The report card's codes are written in five places besides the code that notes them:
// the contract's table (../shared/CONTRACT.md, beside the repository), the docs' two
// tables, the control OpenAPI document and the inspector's Report view. They must agree,
// codes and severities, so a new code cannot land in one and be missing in another.

const read = (path: string) =>
  readFileSync(fileURLToPath(new URL(path, import.meta.url)), 'utf8')

/** The `| `code` | severity |` rows of the table under `heading`, in order. */
function tableRows(text: string, heading: string): [string, string][] {
  const start = text.indexOf(`\n${heading}\n`)
  expect(start, `the heading "${heading}"`).toBeGreaterThan(-1)
  const section = text.slice(start + heading.length + 2)
  const end = section.search(/\n#{1,3} /)
  const rows: [string, string][] = []
  for (const line of (end < 0 ? section : section.slice(0, end)).split('\n')) {
    const row = /^\| `([a-z_]+)` +\| (error|warning|info) +\|/.exec(line)
    if (row) rows.push([row[1] as string, row[2] as string])
  }
  return rows
}

const codes = [...FINDING_CODES]

test('the contract, the docs, the control OpenAPI document and the inspector agree on the codes', () => {
  const contract = tableRows(
    read('../../shared/CONTRACT.md'),
    "## The report card (grading the developer's client)",
  )
  const manual = tableRows(read('../docs/report-card.md'), '## What each code means')
  const errors = tableRows(read('../docs/errors.md'), '## Report card codes')
  expect(contract.map(([code]) => code)).toEqual(codes)
  expect(manual).toEqual(contract)
  expect(errors).toEqual(contract)

  const enums = JSON.stringify(createControlOpenApiDocument()).match(
    /"enum":\[[^\]]*"retry_before_retry_after"[^\]]*\]/g,
  )
  expect(enums?.map((text) => JSON.parse(`{${text}}`).enum)).toEqual([codes])

  expect(Object.keys(FINDING_TITLES)).toEqual(codes)
})
