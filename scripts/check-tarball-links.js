// Does the README work as npm ships it (issue 40)? Packs the repository as `npm publish`
// would, unpacks the tarball, and follows every relative link and image of README.md and of
// every shipped Markdown document it leads to (a folder's link leads to its README.md): each
// must name a file of the tarball, and its `#anchor` a heading there (scripts/check-links.js
// holds the same rule for the repository). A target missing from the tarball is fixed by
// shipping it (package.json "files") or by changing the link; a link leaving the package
// cannot resolve for anyone who installed it. It also refuses what running the examples
// leaves behind (node_modules, lockfiles) and prints the tarball's size.
// `npm run lint:package` runs it (CI, after the build).
// Usage: node scripts/check-tarball-links.js [package.tgz | unpacked-folder]
import { execFileSync } from 'node:child_process'
import {
  existsSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
} from 'node:fs'
import { tmpdir } from 'node:os'
import { join, relative, resolve, dirname, sep } from 'node:path'
import { fileURLToPath } from 'node:url'
import { checkLinks, linksOf } from './check-links.js'

const root = resolve(fileURLToPath(new URL('..', import.meta.url)))

/** Every file of `folder`, as paths from it with `/`. */
function filesIn(folder) {
  return readdirSync(folder, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) =>
      relative(folder, join(entry.parentPath, entry.name)).split(sep).join('/'),
    )
}

/**
 * The Markdown documents a reader reaches from README.md by relative links inside the
 * package at `base`, README.md first; and the links that leave the package.
 */
export function reachableDocuments(base) {
  const documents = ['README.md']
  const outside = []
  for (let index = 0; index < documents.length; index += 1) {
    const document = documents[index]
    const path = resolve(base, document)
    for (const { target, line } of linksOf(readFileSync(path, 'utf8'))) {
      if (/^[a-z][a-z0-9+.-]*:/i.test(target) || target.startsWith('//')) continue
      const file = decodeURIComponent(target.split('#')[0])
      if (file === '') continue
      const targetPath = resolve(dirname(path), file)
      const fromBase = relative(base, targetPath)
      if (fromBase.startsWith('..') || resolve(base, fromBase) !== targetPath) {
        outside.push({
          where: `${document}:${line}: ${target} `,
          problem: `${document}:${line}: ${target} leaves the package (${fromBase}). Link to a file the package ships.`,
        })
        continue
      }
      let next = null
      if (existsSync(targetPath) && statSync(targetPath).isDirectory()) {
        if (existsSync(join(targetPath, 'README.md'))) next = join(fromBase, 'README.md')
      } else if (targetPath.endsWith('.md') && existsSync(targetPath)) next = fromBase
      if (next !== null) {
        const name = next.split(sep).join('/')
        if (!documents.includes(name)) documents.push(name)
      }
    }
  }
  return { documents, outside }
}

/** What the unpacked package at `base` ships that it should not: every such path. */
export function leftovers(base) {
  return filesIn(base).filter((file) =>
    /(^|\/)(node_modules\/|package-lock\.json$|npm-shrinkwrap\.json$)/.test(file),
  )
}

/** Every problem of the unpacked package at `base`, as lines; empty when its README works. */
export function checkPackage(base) {
  const { documents, outside } = reachableDocuments(base)
  const problems = [
    ...outside.map(({ problem }) => problem),
    ...checkLinks(documents, base)
      // A link leaving the package is reported once, above.
      .filter((problem) => !outside.some(({ where }) => problem.startsWith(where)))
      .map((problem) =>
        problem.replace(
          'Fix the path or create the file.',
          'Ship it (package.json "files") or fix the link.',
        ),
      ),
    ...leftovers(base).map(
      (file) =>
        `${file}: the tarball carries what running an example leaves behind; list it in examples/.npmignore.`,
    ),
  ]
  return { documents, problems }
}

/** Packs the repository into `folder`: the tarball's path, packed size and file count. */
function pack(folder) {
  const output = execFileSync('npm', ['pack', '--json', '--pack-destination', folder], {
    cwd: root,
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'inherit'],
  })
  const [{ filename }] = JSON.parse(output)
  return join(folder, filename)
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const given = process.argv[2]
  const work = mkdtempSync(join(tmpdir(), 'petstore-tarball-links-'))
  try {
    let base = given ? resolve(given) : null
    let tarball = null
    if (!base || !statSync(base).isDirectory()) {
      tarball = base ?? pack(work)
      execFileSync('tar', ['-xzf', tarball, '-C', work])
      base = join(work, 'package')
    }
    const { documents, problems } = checkPackage(base)
    const files = filesIn(base).length
    const size = tarball
      ? `${(statSync(tarball).size / 1024).toFixed(0)} KB packed, `
      : ''
    for (const problem of problems) console.error(problem)
    if (problems.length > 0) {
      console.error(
        `${problems.length} problem(s) in the package as npm ships it (${documents.length} documents reached from README.md).`,
      )
      process.exitCode = 1
    } else {
      console.log(
        `Tarball: every relative link and image of ${documents.length} documents reached from README.md resolves inside the package (${size}${files} files).`,
      )
    }
  } finally {
    rmSync(work, { recursive: true, force: true })
  }
}
