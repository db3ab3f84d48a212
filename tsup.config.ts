import { defineConfig } from 'tsup'

export default defineConfig([
  {
    entry: {
      index: 'src/index.ts',
      'node/index': 'src/node/index.ts',
      'browser/index': 'src/browser/index.ts',
      'browser/wrong-runtime': 'src/browser/wrong-runtime.ts',
      'node/wrong-runtime': 'src/node/wrong-runtime.ts',
      'express/wrong-runtime': 'src/express/wrong-runtime.ts',
      'express/index': 'src/express/index.ts',
      // Not a public entry: scripts/write-openapi.js runs it to write dist/openapi.json.
      'openapi/create-openapi-document': 'src/openapi/create-openapi-document.ts',
    },
    format: ['esm'],
    target: 'node20',
    platform: 'neutral',
    dts: {
      entry: {
        index: 'src/index.ts',
        'node/index': 'src/node/index.ts',
        'browser/index': 'src/browser/index.ts',
        'express/index': 'src/express/index.ts',
      },
    },
    splitting: true,
    sourcemap: true,
    // package.json's build script empties dist/ first: the two builds run side by side.
    clean: false,
    // Dependencies and the msw peer stay external; the JSON fixtures and scenarios are
    // bundled so the browser entry has them without a file system.
    external: [/^node:/],
  },
  {
    // The CLI is one file with its dependencies inside, msw included: resolving and
    // loading hundreds of modules was most of the standalone server's startup (npm run
    // bench: msw alone took 105 ms as a package and 33 ms bundled). The CLI is a program,
    // not a library, so it runs on the msw it was built with; the library entries keep
    // using the msw peer the user installed. CI builds once per msw major, so both run.
    entry: { 'cli/index': 'src/cli/index.ts' },
    format: ['esm'],
    target: 'node20',
    platform: 'node',
    splitting: false,
    sourcemap: false,
    clean: false,
    noExternal: [/./],
    // issue 16, item 8: dist/metafile-esm.json lists the packages bundled in, for
    // scripts/write-notices.js (which writes their licences and removes the file).
    metafile: true,
    // Bundled CommonJS dependencies (express, yargs) still call require() for Node's
    // built-ins, which an ES module has only through createRequire.
    banner: {
      js: "import { createRequire as __createRequire } from 'node:module'; const require = __createRequire(import.meta.url);",
    },
  },
])
