import { spawnSync } from 'node:child_process'
import { existsSync } from 'node:fs'
import { createRequire } from 'node:module'
import { basename, resolve } from 'node:path'
import { pathToFileURL } from 'node:url'
import type { RequestHandler } from 'msw'
import { CliError } from './cli-error.js'

let loads = 0

/**
 * Loads `--handlers <module>`: an ES module whose default export, or export `handlers`,
 * is an array of msw handlers. Its `import 'msw'` resolves from the module's own folder,
 * so it runs on whichever msw (2 or 3) that project has; the CLI's msw runs it through
 * getResponse, which only calls each handler's `run`. `fresh` loads it anew (`--watch`):
 * Node caches modules by URL, so each reload is a new URL. Files it imports are not
 * reloaded.
 */
export async function loadHandlersModule(
  path: string,
  fresh = false,
): Promise<RequestHandler[]> {
  const file = resolve(path)
  const fix = `Export an array of msw handlers from ${path}, e.g. export default [http.get('*/v1/pets/1', () => HttpResponse.json({ id: 1, name: 'Rex', categoryId: 1 }))]`
  if (!existsSync(file)) {
    throw new CliError(
      `Failed to load --handlers ${path}: there is no such file. Point it at an ES module (.js or .mjs) that exports your msw handlers.`,
    )
  }
  let module: { default?: unknown; handlers?: unknown }
  try {
    const url = pathToFileURL(file)
    if (fresh) {
      url.search = `?reload=${++loads}`
      // A CommonJS module (.cjs) comes from require's cache whatever the URL says.
      delete createRequire(file).cache[file]
    }
    module = (await withinLoadTime(import(url.href), path)) as typeof module
  } catch (error) {
    if (error instanceof CliError) throw error
    const { code, message } = error as NodeJS.ErrnoException
    if (code === 'ERR_MODULE_NOT_FOUND' && /['"]msw['"/]/.test(message)) {
      throw new CliError(
        `Failed to load --handlers ${path}: it imports msw, which does not resolve from its folder. Install msw in that project (npm install --save-dev msw), or move the file into a project that has it.`,
      )
    }
    // An ES module named .js where the nearest package.json says CommonJS ("type":
    // "commonjs"; without a type, Node detects the syntax and loads it).
    if (
      error instanceof SyntaxError &&
      /import statement outside a module|Unexpected token 'export'/.test(message)
    ) {
      throw new CliError(
        `Failed to load --handlers ${path}: it is an ES module (import/export) in a CommonJS project, so Node will not load it as .js. Rename it to ${basename(file).replace(/\.[cm]?js$/, '')}.mjs, or set "type": "module" in the project's package.json.`,
      )
    }
    // Node names the line of a syntax error only when it prints the error itself.
    const where = error instanceof SyntaxError ? syntaxErrorLine(file) : undefined
    throw new CliError(
      `Failed to load --handlers ${path}: ${message.split('\n')[0]}${where === undefined ? '' : ` (line ${where})`}`,
    )
  }
  const handlers = module.default ?? module.handlers
  if (!Array.isArray(handlers)) {
    throw new CliError(
      `Failed to load --handlers ${path}: it has no default export or export "handlers" that is an array (got ${handlers === undefined ? 'neither' : typeof handlers}). ${fix}.`,
    )
  }
  const index = handlers.findIndex(
    (handler) => typeof (handler as { run?: unknown } | null)?.run !== 'function',
  )
  if (index !== -1) {
    throw new CliError(
      `Failed to load --handlers ${path}: item ${index} of its handlers is not an msw request handler. ${fix}.`,
    )
  }
  return handlers as RequestHandler[]
}

/** How long loading the module may take: a top-level await that never settles would end the CLI silently (exit 13). */
const LOAD_TIME_MS = 10_000

/** The import, or a CliError once it has taken longer than `ms`. */
export function withinLoadTime<T>(
  loading: Promise<T>,
  path: string,
  ms = LOAD_TIME_MS,
): Promise<T> {
  let timer: NodeJS.Timeout | undefined
  const late = new Promise<never>((_resolve, reject) => {
    // The timer also keeps Node running while the module's top-level await waits.
    timer = setTimeout(
      () =>
        reject(
          new CliError(
            `Failed to load --handlers ${path}: it did not finish loading within ${ms / 1000} s (a top-level await that never settles?). Export the handlers without waiting on anything that may not come.`,
          ),
        ),
      ms,
    )
  })
  return Promise.race([loading, late]).finally(() => clearTimeout(timer))
}

/** The line `node --check` names for a module's syntax error, if it names one. */
function syntaxErrorLine(file: string): string | undefined {
  const checked = spawnSync(process.execPath, ['--check', file], {
    encoding: 'utf8',
    timeout: 10_000,
  })
  const located = /:(\d+)\s*$/m.exec(checked.stderr.split('\n')[0] ?? '')
  return located?.[1]
}
