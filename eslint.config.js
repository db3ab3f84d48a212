import { builtinModules } from 'node:module'
import js from '@eslint/js'
import tseslint from 'typescript-eslint'
import rooms from './scripts/eslint-rooms.js'

// Boundaries between the rooms of src (docs/design.md#rooms): which room imports which
// is scripts/eslint-rooms.js (rules rooms/direction and rooms/no-circle); what each
// folder may take from packages and globals is below. test/boundaries.test.ts plants a
// violation of each rule.

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
    // Rooms import one way and never in a circle (scripts/eslint-rooms.js); a function
    // a reader can hold is at most 100 lines (a longer one is a room that wants a file).
    files: ['src/**/*.ts'],
    plugins: { rooms },
    rules: { 'rooms/direction': 'error', 'rooms/no-circle': 'error' },
  },
  {
    files: ['src/**/*.ts'],
    ignores: ['src/**/*.test.ts', 'src/**/*.test-support.ts'],
    rules: {
      'max-lines-per-function': [
        'error',
        { max: 100, skipBlankLines: true, skipComments: true, IIFEs: true },
      ],
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
        patterns: [nodeBuiltins.pattern],
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
        patterns: [nodeBuiltins.pattern],
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
        patterns: [nodeBuiltins.pattern],
      }),
    },
  },
  {
    // cli -> express, node and core.
    files: ['src/cli/**/*.ts'],
    rules: {
      'no-restricted-imports': restrictImports({
        paths: runtimePackages(['msw/browser']),
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
