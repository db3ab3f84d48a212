// Do the documents' relative links lead somewhere? Every link of README.md, CONTRIBUTING.md,
// docs/**/*.md, bench/*.md, bench/results/README.md and examples/*/README.md that is not a URL must name a file or
// folder of the repository, and its `#anchor` a heading of the target (GitHub's slug) or
// an `<a id>` in it. `npm run lint` runs it, so a moved section cannot leave a dead link.
// Usage: node scripts/check-links.js [file.md ...] (default: the documents above).
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs'
import { dirname, join, relative, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'

const root = resolve(fileURLToPath(new URL('..', import.meta.url)))

/** The documents checked by default, as paths from `base`. */
export function defaultDocuments(base = root) {
  const markdownIn = (folder, recursive) =>
    existsSync(join(base, folder))
      ? readdirSync(join(base, folder), { recursive, encoding: 'utf8' })
          .map((file) => `${folder}/${file.split('\\').join('/')}`)
          .filter((file) => file.endsWith('.md') && !file.includes('node_modules/'))
      : []
  const examples = existsSync(join(base, 'examples'))
    ? readdirSync(join(base, 'examples'))
        .map((name) => `examples/${name}/README.md`)
        .filter((file) => existsSync(join(base, file)))
    : []
  return [
    ...['README.md', 'CONTRIBUTING.md'].filter((file) => existsSync(join(base, file))),
    ...markdownIn('docs', true),
    ...markdownIn('bench', false),
    ...['bench/results/README.md'].filter((file) => existsSync(join(base, file))),
    ...examples,
  ]
}

/**
 * GitHub's anchor for a heading (github-slugger): the rendered text in lower case, without
 * punctuation but `-` and `_`, spaces as `-`; a repeated slug gets `-1`, `-2`, ...
 */
export function slugsOf(markdown) {
  const slugs = new Set()
  const seen = new Map()
  for (const line of withoutCode(markdown)) {
    const explicit = line.matchAll(/<a\s+(?:id|name)="([^"]+)"/g)
    for (const [, id] of explicit) slugs.add(id)
    const heading = /^ {0,3}#{1,6}\s+(.*?)\s*#*\s*$/.exec(line)
    if (!heading) continue
    const text = heading[1]
      .replace(/!?\[([^\]]*)\]\([^)]*\)/g, '$1') // links and images: their text
      .replace(/<[^>]+>/g, '') // inline HTML
      .replace(/[`*]/g, '')
    const base = text
      .toLowerCase()
      .replace(/[^\p{L}\p{M}\p{N}\p{Pc} -]/gu, '')
      .replace(/ /g, '-')
    const count = seen.get(base) ?? 0
    seen.set(base, count + 1)
    slugs.add(count === 0 ? base : `${base}-${count}`)
  }
  return slugs
}

/** The lines outside fenced code blocks, inline code blanked out. */
function withoutCode(markdown) {
  const lines = []
  let fence = null
  for (const line of markdown.split('\n')) {
    const marker = /^\s*(`{3,}|~{3,})/.exec(line)
    if (fence) {
      if (marker && marker[1][0] === fence[0] && marker[1].length >= fence.length)
        fence = null
      lines.push('')
      continue
    }
    if (marker) {
      fence = marker[1]
      lines.push('')
      continue
    }
    lines.push(line)
  }
  return lines
}

/** The link targets of a document, with their line numbers. */
export function linksOf(markdown) {
  const links = []
  withoutCode(markdown).forEach((line, index) => {
    const text = line.replace(/`[^`]*`/g, (code) => ' '.repeat(code.length))
    for (const match of text.matchAll(/\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/g))
      links.push({ target: match[1], line: index + 1 })
    const definition = /^ {0,3}\[[^\]]+\]:\s*<?(\S+?)>?(?:\s|$)/.exec(text)
    if (definition) links.push({ target: definition[1], line: index + 1 })
  })
  return links
}

/**
 * Every broken relative link of the documents (paths from `base`), as
 * `file:line: message` lines; empty when all resolve.
 */
export function checkLinks(documents, base = root) {
  const problems = []
  const slugCache = new Map()
  const slugsIn = (file) => {
    if (!slugCache.has(file)) slugCache.set(file, slugsOf(readFileSync(file, 'utf8')))
    return slugCache.get(file)
  }
  for (const document of documents) {
    const path = resolve(base, document)
    const markdown = readFileSync(path, 'utf8')
    for (const { target, line } of linksOf(markdown)) {
      if (/^[a-z][a-z0-9+.-]*:/i.test(target) || target.startsWith('//')) continue
      const hash = target.indexOf('#')
      const file = hash === -1 ? target : target.slice(0, hash)
      const anchor = hash === -1 ? '' : decodeURIComponent(target.slice(hash + 1))
      const where = `${document}:${line}`
      const targetPath =
        file === '' ? path : resolve(dirname(path), decodeURIComponent(file))
      if (!existsSync(targetPath)) {
        problems.push(
          `${where}: ${target} names ${relative(base, targetPath)}, which does not exist. Fix the path or create the file.`,
        )
        continue
      }
      if (!anchor) continue
      if (statSync(targetPath).isDirectory() || !targetPath.endsWith('.md')) {
        problems.push(
          `${where}: ${target} has an anchor, but its target is not a Markdown file.`,
        )
        continue
      }
      if (!slugsIn(targetPath).has(anchor))
        problems.push(
          `${where}: ${target}: ${relative(base, targetPath)} has no heading with the anchor #${anchor}. Link to a heading it has (GitHub's slug: lower case, punctuation dropped, spaces as -).`,
        )
    }
  }
  return problems
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const args = process.argv.slice(2)
  const documents = args.length > 0 ? args : defaultDocuments()
  const problems = checkLinks(documents, args.length > 0 ? process.cwd() : root)
  for (const problem of problems) console.error(problem)
  if (problems.length > 0) {
    console.error(`${problems.length} broken link(s) in ${documents.length} documents.`)
    process.exit(1)
  }
  console.log(
    `Links: every relative link and anchor of ${documents.length} documents resolves.`,
  )
}
