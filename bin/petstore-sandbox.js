#!/usr/bin/env node
// The npx entry: only loads the built CLI and runs it (src/cli has the code).
import { existsSync } from 'node:fs'
import module from 'node:module'
import { fileURLToPath } from 'node:url'

// Node 22.8+ keeps V8's compiled code of the CLI in the OS temp folder, so later starts
// skip compiling its 3 MB (as tsc does; NODE_DISABLE_COMPILE_CACHE=1 turns it off).
// Node 20 has no compile cache. The CLI is imported after, hence the dynamic import.
module.enableCompileCache?.()
const cli = new URL('../dist/cli/index.js', import.meta.url)
let main
try {
  ;({ main } = await import(cli.href))
} catch (error) {
  // In a clone of the repository before its first build (the package ships dist/). A
  // module the built CLI imports that is missing names the CLI too: that one is thrown.
  if (error?.code !== 'ERR_MODULE_NOT_FOUND' || existsSync(fileURLToPath(cli)))
    throw error
  process.stderr.write(
    'petstore-sandbox: the CLI is not built (dist/cli/index.js is missing). In a clone of the repository, run `npm start` (it builds, then starts the sandbox) or `npm run build` first.\n',
  )
  process.exit(1)
}

await main(process.argv.slice(2))
// Node writes the cache at exit, which a server killed by a signal (a test runner, a
// container stop) never reaches: write it now, once it starts; a no-op when unchanged.
module.flushCompileCache?.()
