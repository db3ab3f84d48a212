import { spawnSync } from 'node:child_process'
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
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

// scripts/check-tarball-links.js (run by `npm run lint:package` in CI) holds the README as
// npm ships it to the same rule, inside the unpacked tarball: every link and image of
// README.md and of the documents it leads to names a file the package ships (issue 40).
const tarballScript = fileURLToPath(
  new URL('../scripts/check-tarball-links.js', import.meta.url),
)

function checkPackage(files: Record<string, string>) {
  const base = mkdtempSync(join(folder, 'package-'))
  for (const [file, text] of Object.entries(files)) {
    mkdirSync(dirname(join(base, file)), { recursive: true })
    writeFileSync(join(base, file), text)
  }
  const run = spawnSync(process.execPath, [tarballScript, base], { encoding: 'utf8' })
  return { status: run.status, output: `${run.stdout}${run.stderr}` }
}

const SHIPPED = {
  'README.md': '# Pkg\n\n![panel](docs/images/panel.png)\n[guide](docs/guide.md#setup)\n',
  'docs/images/panel.png': 'png',
  'docs/guide.md': '# Guide\n\n## Setup\n\n[example](../examples/app)\n',
  'examples/app/README.md': '# App\n\n[back](../../docs/guide.md)\n',
}

test('a package whose README links and images all resolve inside it passes, following the docs it links', () => {
  expect(checkPackage(SHIPPED)).toEqual({
    status: 0,
    output: expect.stringContaining(
      'every relative link and image of 3 documents reached from README.md resolves inside the package',
    ),
  })
})

test("an image, a doc's link to an example or a link out of the package that the tarball lacks fails, naming the line and the fix", () => {
  const { 'docs/images/panel.png': _image, ...withoutImage } = SHIPPED
  void _image
  const { status, output } = checkPackage({
    ...withoutImage,
    'docs/guide.md':
      '# Guide\n\n## Setup\n\n[example](../examples/gone)\n[src](../../src/x.ts)\n',
    'examples/app/node_modules/dep/index.js': '',
  })
  expect(status).toBe(1)
  expect(output).toContain(
    'README.md:3: docs/images/panel.png names docs/images/panel.png, which does not exist. Ship it (package.json "files") or fix the link.',
  )
  expect(output).toContain('docs/guide.md:5: ../examples/gone names examples/gone')
  expect(output).toContain('docs/guide.md:6: ../../src/x.ts leaves the package')
  expect(output).toContain(
    'examples/app/node_modules/dep/index.js: the tarball carries what running an example leaves behind',
  )
  expect(output).toContain('4 problem(s) in the package as npm ships it')
})
