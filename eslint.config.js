import { builtinModules } from 'node:module'
import js from '@eslint/js'
import tseslint from 'typescript-eslint'

// Boundaries between the folders of src (docs/design.md). Each folder's files sit
// directly in it, so a relative import names its target folder as `../<folder>/`; the
// one folder a level deeper, src/node/file-store/, leaves src/node with `../../` and has
// its own rule. test/boundaries.test.ts holds the layout to that and plants a violation
// of each rule.

// Node's built-in modules, bare (`fs`, `fs/promises`) and as `node:*`.
const nodeBuiltins = {
  paths: builtinModules
    .filter((name) => !name.startsWith('_'))
    .map((name) => ({ name, message: 'Node built-ins stay out of this folder.' })),
  pattern: { group: ['node:*'], message: 'Node built-ins stay out of this folder.' },
}

// Other runtimes' packages; plain `msw` is runtime-agnostic and stays allowed.
const runtimePackages = (names) =>
  names.map((name) => ({
    name,
    message: `${name} belongs to another runtime's folder (docs/design.md).`,
  }))

// Our own package by name would come back through dist: import the source.
const selfReference = {
  paths: [
    { name: 'petstore-sandbox', message: 'Import the source file, not the package.' },
  ],
  pattern: {
    group: ['petstore-sandbox/*'],
    message: 'Import the source file, not the package.',
  },
}

// A file in src/<folder>/ leaves its folder with `../`: refuse every target there but
// the allowed ones, named relative to src (`core`, `index.js`, `../fixtures`).
const escapeRegex = (text) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')
const nameFromSrc = (target) =>
  target.startsWith('../') ? target.slice(3) : `src/${target.replace(/\.js$/, '.ts')}`
const onlyFrom = (folder, allowed) => ({
  regex: `^\\.\\./(?!(${allowed.map(escapeRegex).join('|')})(/|$))`,
  message: `src/${folder} imports only from ${allowed.map(nameFromSrc).join(', ')} (docs/design.md).`,
})

// A file in src/<folder>/<part>/ stays in its folder with `../`, and leaves it with
// `../../`: refuse every target there but the allowed ones.
const onlyFromNested = (folder, part, allowed) => ({
  regex: `^\\.\\./\\.\\./(?!(${allowed.map(escapeRegex).join('|')})(/|$))`,
  message: `src/${folder}/${part} imports only from src/${folder} and ${allowed.map(nameFromSrc).join(', ')} (docs/design.md).`,
})

const restrictImports = ({ paths = [], patterns = [] }) => [
  'error',
  {
    paths: [...selfReference.paths, ...paths],
    patterns: [selfReference.pattern, ...patterns],
  },
]

// Globals of one runtime that runtime-agnostic code must not reach for. The core keeps
// the DOM lib for Request, Response and TextDecoder, so TypeScript knows these names.
const browserGlobals = [
  'window',
  'document',
  'navigator',
  'location',
  'localStorage',
  'sessionStorage',
  'self',
]
const nodeGlobals = [
  'process',
  'Buffer',
  'global',
  'require',
  'module',
  '__dirname',
  '__filename',
  'setImmediate',
  'clearImmediate',
]
const restrictGlobals = (names, where) => [
  'error',
  ...names.map((name) => ({ name, message: `${name} is not available ${where}.` })),
]
const restrictGlobalThis = (names, where) => [
  'error',
  ...names.map((property) => ({
    object: 'globalThis',
    property,
    message: `${property} is not available ${where}.`,
  })),
]

// core -> its data (fixtures, scenarios) only.
const coreDirection = onlyFrom('core', ['../fixtures', '../scenarios'])
const coreTests = 'src/core/**/*.test.ts'

export default tseslint.config(
  {
    ignores: [
      'dist/',
      'node_modules/',
      'test-output/',
      '**/mockServiceWorker.js',
      'bench/results/',
      '.tmp/',
      '.tmp-*',
      // Written by the examples' own builds (examples/typed-client, examples/next).
      'examples/*/dist/',
      'examples/*/.next/',
      'examples/*/next-env.d.ts',
      'examples/*/src/schema.d.ts',
      'examples/*/src/control-schema.d.ts',
      'examples/*/storybook-static/',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    rules: {
      '@typescript-eslint/no-explicit-any': 'off',
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_' },
      ],
      // Node and browser globals differ per folder; TypeScript checks names in .ts and
      // the plain .js scripts run in CI, so no-undef would only add false alarms.
      'no-undef': 'off',
    },
  },
  {
    // The core runs in every runtime: no Node, no DOM, no express or yargs, no msw/node
    // or msw/browser, and nothing of ours but its data.
    files: ['src/core/**/*.ts'],
    ignores: [coreTests],
    rules: {
      'no-restricted-imports': restrictImports({
        paths: [
          ...nodeBuiltins.paths,
          ...runtimePackages(['express', 'yargs', 'msw/node', 'msw/browser']),
        ],
        patterns: [nodeBuiltins.pattern, coreDirection],
      }),
      'no-restricted-globals': restrictGlobals(
        [...browserGlobals, ...nodeGlobals],
        'in every runtime the core runs in',
      ),
      'no-restricted-properties': restrictGlobalThis(
        [...browserGlobals, ...nodeGlobals],
        'in every runtime the core runs in',
      ),
      // `/// <reference types="node" />` would bring Node's globals back past
      // tsconfig.core.json's `types: []`.
      '@typescript-eslint/triple-slash-reference': [
        'error',
        { types: 'never', path: 'never', lib: 'never' },
      ],
    },
  },
  {
    // The core's unit tests run in vitest on Node: Node is fine, the direction is not.
    files: [coreTests],
    rules: { 'no-restricted-imports': restrictImports({ patterns: [coreDirection] }) },
  },
  {
    // The package's root entry is the core's public face.
    files: ['src/index.ts'],
    rules: {
      'no-restricted-imports': restrictImports({
        paths: [
          ...nodeBuiltins.paths,
          ...runtimePackages(['express', 'yargs', 'msw/node', 'msw/browser']),
        ],
        patterns: [
          nodeBuiltins.pattern,
          {
            regex: '^\\.\\.?/(?!core/)',
            message: 'src/index.ts re-exports the core only.',
          },
        ],
      }),
    },
  },
  {
    // node -> core.
    files: ['src/node/**/*.ts'],
    rules: {
      'no-restricted-imports': restrictImports({
        paths: runtimePackages(['express', 'yargs', 'msw/browser']),
        patterns: [onlyFrom('node', ['core', 'index.js'])],
      }),
    },
  },
  {
    // node/file-store -> the rest of node, core. (The lint of src/node/** above does not
    // fit it: its `../` is src/node.)
    files: ['src/node/file-store/**/*.ts'],
    rules: {
      'no-restricted-imports': restrictImports({
        paths: runtimePackages(['express', 'yargs', 'msw/browser']),
        patterns: [onlyFromNested('node', 'file-store', ['core', 'index.js'])],
      }),
    },
  },
  {
    // browser -> core, and nothing of Node's.
    files: ['src/browser/**/*.ts'],
    rules: {
      'no-restricted-imports': restrictImports({
        paths: [
          ...nodeBuiltins.paths,
          ...runtimePackages(['express', 'yargs', 'msw/node']),
        ],
        patterns: [nodeBuiltins.pattern, onlyFrom('browser', ['core', 'index.js'])],
      }),
      'no-restricted-globals': restrictGlobals(nodeGlobals, 'in the browser'),
      'no-restricted-properties': restrictGlobalThis(nodeGlobals, 'in the browser'),
    },
  },
  {
    // express -> core, node (Node file loading) and openapi (the served document).
    files: ['src/express/**/*.ts'],
    rules: {
      'no-restricted-imports': restrictImports({
        paths: runtimePackages(['yargs', 'msw/browser']),
        patterns: [onlyFrom('express', ['core', 'node', 'openapi', 'index.js'])],
      }),
    },
  },
  {
    // openapi -> core: the document is built from the core's route table and schemas,
    // with no runtime's packages; only the build and the server import it.
    files: ['src/openapi/**/*.ts'],
    ignores: ['src/openapi/**/*.test.ts'],
    rules: {
      'no-restricted-imports': restrictImports({
        paths: [
          ...nodeBuiltins.paths,
          ...runtimePackages(['express', 'yargs', 'msw/node', 'msw/browser']),
        ],
        patterns: [nodeBuiltins.pattern, onlyFrom('openapi', ['core'])],
      }),
    },
  },
  {
    // cli -> express, node and core.
    files: ['src/cli/**/*.ts'],
    rules: {
      'no-restricted-imports': restrictImports({
        paths: runtimePackages(['msw/browser']),
        patterns: [onlyFrom('cli', ['core', 'node', 'express', 'index.js'])],
      }),
    },
  },
  {
    // The CommonJS Jest example is about require(): that is what it shows.
    files: ['examples/jest/**/*.js'],
    languageOptions: { sourceType: 'commonjs' },
    rules: { '@typescript-eslint/no-require-imports': 'off' },
  },
)
