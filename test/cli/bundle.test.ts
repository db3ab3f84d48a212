import { readFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { expect, test } from 'vitest'

// What tsup.config.ts does to the CLI bundle for startup time (issue 22), checked on the
// built file: each is a trap a dependency update or a build change could bring back.
const CLI = fileURLToPath(new URL('../../dist/cli/index.js', import.meta.url))

test('the CLI bundle leaves out what costs start-up time and is never used', () => {
  const code = readFileSync(CLI, 'utf8')
  // body-parser and iconv-lite's charset tables: the sandbox reads bodies itself.
  expect(code).not.toMatch(/node_modules\/(iconv-lite|body-parser)\//)
  // Segmenters are made on first use, not as yargs' modules load.
  expect(code.match(/new Intl\.Segmenter\b/g) ?? []).toEqual([])
  expect(code).toMatch(/new LazySegmenter\b/)
  // `v` regular expressions stay literals (built when first run), not `new RegExp`.
  expect(code).not.toMatch(/new RegExp\("[^"]*\\\\p\{RGI_Emoji\}/)
  expect(code).toMatch(/\/\^\\p\{RGI_Emoji\}\$\/v/)
  // mime-db as a JSON string, which V8 reads faster than an object literal.
  expect(code).toMatch(
    /mime-db\/db\.json"\(exports,\s*module\)\s*\{[^}]*module\.exports\s*=\s*JSON\.parse\('/,
  )
})
