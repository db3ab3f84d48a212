import { mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { dirname } from 'node:path'
import { fileURLToPath } from 'node:url'
import type { Plugin } from 'esbuild'
import { defineConfig } from 'tsup'
// --- CommonJS build (issue 16, Jest): its settings; the build itself is further down.
import { jestJsdomProblem } from './src/node/check-environment.js'

// The CommonJS build bundles msw 2 (see below). msw 3's interceptors read a .wasm file
// beside their own module, which a bundle cannot carry, so when the installed msw is 3
// (CI's second leg) that build leaves msw to the user's install instead: require() of
// an ES module, which Node 22.12+ does natively. Releases are built with msw 2.
const mswMajor = Number(
  (
    JSON.parse(readFileSync('node_modules/msw/package.json', 'utf8')) as {
      version: string
    }
  ).version.split('.')[0],
)
const bundleMsw = mswMajor < 3
// --- end of the CommonJS build's settings

/**
 * What the ES module library entries bundle: @msw/data and what it imports, zod, faker.
 * Not outvariant and rettime, which @msw/data imports too: msw 2 and 3 import them
 * (same majors), so the user's install has them beside msw, and an app bundling the
 * browser entry keeps one copy of each, msw's (bundled here, they were a second copy:
 * 1.5 KB gzipped of the browser entry; docs/performance.md, "The browser entry's
 * weight"). They are dependencies of the package (package.json), not left to chance.
 */
const LIBRARY_BUNDLED = [
  /^@faker-js\/faker(\/|$)/,
  /^@msw\/data(\/|$)/,
  /^es-toolkit(\/|$)/,
  /^mutative(\/|$)/,
  /^@standard-schema\/spec(\/|$)/,
  /^zod(\/|$)/,
]

/**
 * An esbuild plugin writing the build's metafile to `file`. tsup writes the outputs after
 * esbuild ends, so on a clean build the folder may not exist yet.
 */
function writeMetafile(file: string): Plugin {
  return {
    name: 'write-metafile',
    setup(build) {
      build.onEnd((result) => {
        if (!result.metafile) return
        mkdirSync(dirname(file), { recursive: true })
        writeFileSync(file, JSON.stringify(result.metafile))
      })
    },
  }
}

/**
 * The CLI bundle's `body-parser` (imported by Express 5 at load for `express.json()` and
 * its siblings, which the CLI's app never mounts): src/cli/no-body-parser.cjs.
 */
const cliWithoutBodyParser: Plugin = {
  name: 'cli-without-body-parser',
  setup(build) {
    build.onResolve({ filter: /^body-parser$/ }, () => ({
      path: fileURLToPath(new URL('./src/cli/no-body-parser.cjs', import.meta.url)),
    }))
  },
}

/**
 * Bundled JSON files of a kilobyte or more as `JSON.parse('...')`: V8 reads a JSON string
 * several times faster than the same data as an object literal, and mime-db's 200 KB
 * (Express's content types) was parsed as JavaScript at every start of the CLI.
 */
const jsonAsJsonParse: Plugin = {
  name: 'json-as-json-parse',
  setup(build) {
    build.onLoad({ filter: /\.json$/ }, ({ path }) => {
      const text = readFileSync(path, 'utf8')
      if (text.length < 1024) return undefined
      const compact = JSON.stringify(JSON.parse(text))
      return {
        contents: `module.exports = JSON.parse(${JSON.stringify(compact)})`,
        loader: 'js',
      }
    })
  },
}

export default defineConfig([
  {
    entry: {
      index: 'src/index.ts',
      'node/index': 'src/node/index.ts',
      'browser/index': 'src/browser/index.ts',
      // The inspector panel, a devtool, is an entry of its own: apps that never open it
      // do not carry it (docs/performance.md, "The browser entry").
      'browser/inspector': 'src/browser/inspector-panel.ts',
      'browser/wrong-runtime': 'src/browser/wrong-runtime.ts',
      'node/wrong-runtime': 'src/node/wrong-runtime.ts',
      'express/wrong-runtime': 'src/express/wrong-runtime.ts',
      'express/index': 'src/express/index.ts',
    },
    format: ['esm'],
    target: 'node20',
    platform: 'neutral',
    dts: {
      entry: {
        index: 'src/index.ts',
        'node/index': 'src/node/index.ts',
        'browser/index': 'src/browser/index.ts',
        'browser/inspector': 'src/browser/inspector-panel.ts',
        'express/index': 'src/express/index.ts',
      },
    },
    splitting: true,
    sourcemap: true,
    // package.json's build script empties dist/ first: the two builds run side by side.
    clean: false,
    // The msw peer, express and node:* stay external; the JSON fixtures and scenarios are
    // bundled so the browser entry has them without a file system.
    external: [/^node:/],
    // Cold start (issue 22): @msw/data imports es-toolkit/compat's barrel for three
    // functions, and a fresh process opened 555 of its files (~140 ms), zod/mini 92 more
    // (~60 ms): more than msw/node itself. Bundled and tree-shaken they are one chunk
    // parsed once. The .d.ts still name @msw/data and zod, so both stay dependencies
    // (@msw/data pinned to the version bundled here, so its types describe this copy).
    // faker too: its package entry imports all of its 70 locales (some 350 ms in Node),
    // where bundled and tree-shaken it is the Faker class seeding uses, without data.
    noExternal: LIBRARY_BUNDLED,
    // dist/metafile-lib.json: what this build bundles, for scripts/write-notices.js (the
    // CLI's build writes metafile-esm.json, so this one writes its own name).
    esbuildOptions(options) {
      options.metafile = true
    },
    esbuildPlugins: [writeMetafile('dist/metafile-lib.json')],
  },
  {
    // Not a public entry: scripts/write-openapi.js runs it to write dist/openapi.json and
    // dist/control-openapi.json, which the server serves. A build of its own, so the
    // library's shared chunks carry none of full zod's JSON Schema output: as an entry
    // beside them it made the browser entry 3 KB (gzipped) heavier in an app's bundle.
    entry: {
      'openapi/create-openapi-document': 'src/openapi/create-openapi-document.ts',
    },
    format: ['esm'],
    target: 'node20',
    platform: 'neutral',
    splitting: false,
    sourcemap: false,
    clean: false,
    noExternal: LIBRARY_BUNDLED,
    external: [/^node:/],
  },
  // --- CommonJS build of the browser entries (issue 40): `require` conditions of
  // "./browser" and "./browser/inspector", for an app whose bundler meets them through
  // require() (and for @arethetypeswrong/cli, which holds every entry to it). The ES module
  // entries above are what `import` gets, and what bench/bundle.js measures. As there, msw
  // (the worker script must match the user's msw), outvariant and rettime stay the user's,
  // and the same packages are bundled from the same sources (their notices are the library
  // build's). "browser/wrong-runtime" is what Node's require() gets instead.
  {
    entry: {
      'browser/index': 'src/browser/index.ts',
      'browser/inspector': 'src/browser/inspector-panel.ts',
      'browser/wrong-runtime': 'src/browser/wrong-runtime.ts',
    },
    format: ['cjs'],
    target: 'node20',
    platform: 'neutral',
    splitting: true,
    sourcemap: false,
    clean: false,
    noExternal: LIBRARY_BUNDLED,
    external: [/^node:/],
  },
  // --- CommonJS build (issue 16, Jest): `require` conditions of ".", "./node", "./express".
  {
    // For Jest and other CommonJS callers: `require('petstore-sandbox/node')` with no
    // transform settings. Everything ESM-only is bundled in: @msw/data and its helpers,
    // faker, and msw itself, whose CommonJS build requires ESM-only packages (rettime,
    // until-async) that Jest cannot load before Node 24.9 (mswjs/msw#2698). So this build
    // runs on the msw it was built with, as the CLI does; the ESM entries keep using the
    // user's msw. msw matches handlers by kind, not by class, so handlers from another
    // msw copy still work. express stays an ordinary dependency. The same source and the
    // same faker give the same data for a seed, byte for byte (test/cjs-build.test.ts).
    entry: {
      index: 'src/index.ts',
      'node/index': 'src/node/index.ts',
      'node/wrong-runtime': 'src/node/wrong-runtime.ts',
      'express/index': 'src/express/index.ts',
      'express/wrong-runtime': 'src/express/wrong-runtime.ts',
    },
    format: ['cjs'],
    target: 'node20',
    platform: 'node',
    // dist/metafile-cjs.json: what this build bundles, for the notices (write-notices.js).
    metafile: true,
    // One copy of the core shared by the three entries, as in the ESM build.
    splitting: true,
    sourcemap: false,
    clean: false,
    // No dts here: scripts/write-cjs-types.js copies the ESM declarations to .d.cts
    // twins (same text, relative imports to .cjs), which halves the declaration time.
    // import.meta.url (the msw version check, the package's own files) from __filename.
    shims: true,
    noExternal: bundleMsw ? [/^(?!express(\/|$))/] : [/^(?!(express|msw)(\/|$))/],
    // The msw check at the door reads the user's msw; a build with its own does not use it.
    define: bundleMsw ? { __PETSTORE_SANDBOX_BUNDLED_MSW__: 'true' } : {},
    // `crypto` with randomUUID even under Jest 29's jsdom (src/node/crypto-shim.ts).
    inject: ['src/node/crypto-shim.ts'],
    // Jest's plain jsdom forced to the node condition has no TextDecoder, and the
    // bundled msw fails on it while loading, before any entry code runs (a split build
    // loads its chunks first). Every file of this build names the cause first.
    banner: {
      js: `if (typeof navigator !== 'undefined' && /jsdom/i.test(navigator.userAgent) && typeof TextDecoder === 'undefined') throw Object.assign(new Error(${JSON.stringify(jestJsdomProblem('petstore-sandbox/node').message)}), { name: 'SandboxError', code: 'WRONG_RUNTIME' });`,
    },
  },
  // --- end of the CommonJS build
  {
    // The CLI is one file with its dependencies inside, msw included: resolving and
    // loading hundreds of modules was most of the standalone server's startup (npm run
    // bench: msw alone took 105 ms as a package and 33 ms bundled). The CLI is a program,
    // not a library, so it runs on the msw it was built with; the library entries keep
    // using the msw peer the user installed. CI builds once per msw major, so both run.
    // One file, not chunks: splitting the lazy parts out (the OpenAPI writer, msw's
    // graphql) made startup about 10 ms slower (more modules to load) than parsing them.
    entry: { 'cli/index': 'src/cli/index.ts' },
    format: ['esm'],
    // ES2024 syntax, which Node 20.19 runs, rather than `node20`: for node targets
    // esbuild rewrites `/\p{RGI_Emoji}/v` (yargs' string-width) into `new RegExp(...)`,
    // which builds the emoji set when the module loads (13 ms at every start).
    target: 'es2024',
    platform: 'node',
    splitting: false,
    // Whitespace and syntax only, so stack traces keep their names: a third less to
    // parse at start. Renaming identifiers made startup slower, not faster (V8 compiles
    // esbuild's minified module wrappers eagerly).
    minifyWhitespace: true,
    minifySyntax: true,
    esbuildPlugins: [cliWithoutBodyParser, jsonAsJsonParse],
    // yargs' text-width helpers make an Intl.Segmenter as they load (9 ms of ICU at every
    // start); the CLI's makes its segmenter on first use (src/cli/lazy-segmenter.ts).
    define: { 'Intl.Segmenter': 'LazySegmenter' },
    inject: ['src/cli/lazy-segmenter.ts'],
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
