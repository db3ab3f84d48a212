import { spawnSync } from 'node:child_process'
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { afterAll, expect, test } from 'vitest'

// scripts/check-links.js (run by `npm run lint`) holds every relative link and heading
// anchor of the documents to what exists: a moved section cannot leave a dead link.
const script = fileURLToPath(new URL('../scripts/check-links.js', import.meta.url))
const folder = mkdtempSync(join(tmpdir(), 'petstore-links-'))
afterAll(() => rmSync(folder, { recursive: true, force: true }))

function check(cwd: string, ...files: string[]) {
  const run = spawnSync(process.execPath, [script, ...files], { cwd, encoding: 'utf8' })
  return { status: run.status, output: `${run.stdout}${run.stderr}` }
}

mkdirSync(join(folder, 'docs'))
writeFileSync(
  join(folder, 'docs', 'page.md'),
  '# A page\n\n## In tests: `petstore-sandbox/node`\n\n### Where it is silent: the decisions\n',
)

test('links to files and GitHub-style heading anchors pass', () => {
  writeFileSync(
    join(folder, 'good.md'),
    [
      '# Good',
      '[page](docs/page.md), [tests](docs/page.md#in-tests-petstore-sandboxnode),',
      '[silent](docs/page.md#where-it-is-silent-the-decisions), [here](#good),',
      '[folder](docs/), [web](https://example.com/x.md#nowhere)',
      '```md',
      '[inside a code block](missing.md)',
      '```',
    ].join('\n'),
  )
  expect(check(folder, 'good.md')).toEqual({
    status: 0,
    output: expect.stringContaining('resolves'),
  })
})

test('a missing file or a heading anchor that is not there fails, naming the line and the fix', () => {
  writeFileSync(
    join(folder, 'broken.md'),
    '# Broken\n\n[gone](docs/moved.md)\n[typo](docs/page.md#in-tests)\n[self](#nothing)\n',
  )
  const { status, output } = check(folder, 'broken.md')
  expect(status).toBe(1)
  expect(output).toContain(
    'broken.md:3: docs/moved.md names docs/moved.md, which does not exist',
  )
  expect(output).toContain(
    'broken.md:4: docs/page.md#in-tests: docs/page.md has no heading with the anchor #in-tests',
  )
  expect(output).toContain('broken.md:5: #nothing')
  expect(output).toContain('3 broken link(s)')
})

test("the repository's documents have no broken link", () => {
  const { status, output } = check(fileURLToPath(new URL('..', import.meta.url)))
  expect(output).toMatch(/every relative link and anchor of \d+ documents resolves/)
  expect(status).toBe(0)
})
