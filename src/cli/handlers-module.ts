import { existsSync } from 'node:fs'
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
    if (fresh) url.search = `?reload=${++loads}`
    module = (await import(url.href)) as typeof module
  } catch (error) {
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
    throw new CliError(`Failed to load --handlers ${path}: ${message.split('\n')[0]}`)
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
