import { readFileSync, statSync } from 'node:fs'
import { dirname, join, relative, resolve, sep } from 'node:path'
import { fileURLToPath } from 'node:url'
import ts from 'typescript'

/**
 * The rooms of src and the one way each imports (docs/design.md#rooms), kept by two ESLint
 * rules of this plugin: `rooms/direction` (an import leaves its room only for a room it
 * may use) and `rooms/no-circle` (no file reaches itself through imports, type-only
 * imports included). test/boundaries.test.ts plants a violation of each.
 *
 * A room is a folder (or one file); a file belongs to the longest room that holds it. A
 * room may always import its own files. Tests (`*.test.ts`, `*.test-support.ts`) may
 * import what their top folder's rooms may (a core test reaches the sandbox it drives).
 */

const CORE_ROOMS = [
  'src/core/common',
  'src/core/http',
  'src/core/data',
  'src/core/scenarios',
  'src/core/coach',
  'src/core/world',
  'src/core/api',
  'src/core/control',
  'src/core/pipeline',
]
/** Each core room with the rooms below it: a room imports only downwards. */
const below = (room) => CORE_ROOMS.slice(0, CORE_ROOMS.indexOf(room))

export const ROOMS = {
  // The core, from the bottom up.
  'src/core/common': [],
  'src/core/http': below('src/core/http'),
  'src/core/data': [...below('src/core/data'), 'fixtures'],
  'src/core/scenarios': [...below('src/core/scenarios'), 'scenarios'],
  'src/core/coach': below('src/core/coach'),
  'src/core/world': below('src/core/world'),
  'src/core/api': below('src/core/api'),
  'src/core/control': below('src/core/control').filter((room) => room !== 'src/core/api'),
  'src/core/pipeline': below('src/core/pipeline'),
  // createSandbox, its options and the msw handlers: the top of the core.
  'src/core': ['src/core'],
  // The entries and adapters around it.
  'src/index.ts': ['src/core'],
  'src/openapi': ['src/core'],
  // The deployment check: only the schemas of the core.
  'src/check': ['src/core/common'],
  'src/node': ['src/core', 'src/index.ts', 'src/check'],
  'src/node/file-store': ['src/node', 'src/core', 'src/index.ts'],
  'src/browser': ['src/core', 'src/index.ts'],
  'src/express': ['src/core', 'src/node', 'src/openapi', 'src/index.ts'],
  'src/cli': ['src/core', 'src/node', 'src/express', 'src/index.ts', 'src/check'],
}

const root = fileURLToPath(new URL('..', import.meta.url))
const toPosix = (path) => path.split(sep).join('/')
const isTest = (path) => /\.test(-support)?\.[cm]?[jt]sx?$/.test(path)
const within = (path, room) => path === room || path.startsWith(`${room}/`)

/** The room of a repository path: the longest room that holds it. */
export function roomOf(path) {
  let found
  for (const room of Object.keys(ROOMS)) {
    if (within(path, room) && (!found || room.length > found.length)) found = room
  }
  return found
}

/** What a file may import: its room's list, or its top folder's for a test. */
function allowedFor(path, room) {
  if (!isTest(path)) return [room, ...ROOMS[room]]
  const top = path.split('/').slice(0, 2).join('/')
  const rooms = Object.keys(ROOMS).filter((name) => within(name, top))
  return [...rooms, ...rooms.flatMap((name) => ROOMS[name])]
}

/** The repository path a relative specifier names from `file` (`.js` as the `.ts` it is built from). */
function targetOf(file, specifier) {
  if (!specifier.startsWith('.')) return undefined
  const absolute = resolve(dirname(file), specifier)
  let named = absolute
  if (absolute.endsWith('.js')) {
    try {
      statSync(absolute)
    } catch {
      named = absolute.replace(/\.js$/, '.ts')
    }
  }
  return toPosix(relative(root, named))
}

/** Every module specifier of a text: imports, `export ... from`, `import()`, type-only ones included. */
function specifiersOf(text) {
  return ts.preProcessFile(text, true, true).importedFiles.map((entry) => entry.fileName)
}

const imports = new Map()
/** A file's import targets on disk (repository paths), read again when it changed. */
function importsOnDisk(path) {
  const file = join(root, path)
  let stamp
  try {
    stamp = statSync(file).mtimeMs
  } catch {
    return []
  }
  const known = imports.get(path)
  if (known && known.stamp === stamp) return known.targets
  const targets = specifiersOf(readFileSync(file, 'utf8'))
    .map((specifier) => targetOf(file, specifier))
    .filter((target) => target !== undefined && /\.ts$/.test(target) && !isTest(target))
  imports.set(path, { stamp, targets })
  return targets
}

/** A way from `start` back to `goal` through files on disk (the linted file's own imports as linted), or undefined. */
function wayBack(start, goal) {
  const seen = new Set([goal])
  const stack = [[start, [start]]]
  while (stack.length > 0) {
    const [path, way] = stack.pop()
    if (seen.has(path)) continue
    seen.add(path)
    for (const next of importsOnDisk(path)) {
      if (next === goal) return [...way, goal]
      if (!seen.has(next)) stack.push([next, [...way, next]])
    }
  }
  return undefined
}

/** Calls `check(node, specifier)` for every module specifier of the linted file. */
function eachImport(check) {
  const source = (node) => {
    if (node.source && typeof node.source.value === 'string')
      check(node.source, node.source.value)
  }
  return {
    ImportDeclaration: source,
    ExportNamedDeclaration: source,
    ExportAllDeclaration: source,
    ImportExpression: source,
    TSImportType(node) {
      const literal = node.argument?.literal ?? node.argument
      if (literal && typeof literal.value === 'string') check(literal, literal.value)
    },
  }
}

const direction = {
  meta: {
    type: 'problem',
    docs: { description: 'An import leaves its room only for a room it may use.' },
    schema: [],
  },
  create(context) {
    const file = context.filename
    const path = toPosix(relative(root, file))
    const room = roomOf(path)
    if (!room) return {}
    const allowed = allowedFor(path, room)
    return eachImport((node, specifier) => {
      const target = targetOf(file, specifier)
      if (target === undefined || target.startsWith('..')) return
      if (allowed.some((name) => within(target, name))) return
      const rooms = ROOMS[room].length > 0 ? ROOMS[room].join(', ') : 'nothing but itself'
      context.report({
        node,
        message: `${room} imports only from ${rooms}; ${target} is in ${roomOf(target) ?? 'no room'} (docs/design.md#rooms).`,
      })
    })
  },
}

const noCircle = {
  meta: {
    type: 'problem',
    docs: {
      description: 'No file reaches itself through imports, type-only ones included.',
    },
    schema: [],
  },
  create(context) {
    const file = context.filename
    const path = toPosix(relative(root, file))
    if (!path.startsWith('src/') || isTest(path)) return {}
    return eachImport((node, specifier) => {
      const target = targetOf(file, specifier)
      if (target === undefined || !target.startsWith('src/') || isTest(target)) return
      const way = target === path ? [path] : wayBack(target, path)
      if (!way) return
      context.report({
        node,
        message: `Import circle: ${[path, ...way].join(' -> ')}. Move what both need into a file below both (docs/design.md#rooms).`,
      })
    })
  },
}

export default { rules: { direction, 'no-circle': noCircle } }
