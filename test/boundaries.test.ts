import { readdirSync } from 'node:fs'
import { join, sep } from 'node:path'
import { fileURLToPath } from 'node:url'
import { ESLint } from 'eslint'
import ts from 'typescript'
import { beforeAll, describe, expect, test } from 'vitest'

// The boundaries of docs/design.md are kept by eslint.config.js and tsconfig.core.json.
// Each is proved here by planting a violation and seeing the tool refuse it.

const root = fileURLToPath(new URL('..', import.meta.url))

describe('eslint refuses imports and globals across the boundaries', () => {
  const eslint = new ESLint({ cwd: root })

  /** The rules that report an error on `code` as if it were the file at `filePath`. */
  async function errors(filePath: string, code: string): Promise<Array<string | null>> {
    const [result] = await eslint.lintText(`${code}\n`, { filePath })
    return (result?.messages ?? []).filter((m) => m.severity === 2).map((m) => m.ruleId)
  }

  test.each([
    ['src/core/planted.ts', "import 'node:fs'", 'no-restricted-imports'],
    ['src/core/planted.ts', "export { join } from 'path'", 'no-restricted-imports'],
    [
      'src/core/planted.ts',
      "export { readFile } from 'fs/promises'",
      'no-restricted-imports',
    ],
    ['src/core/planted.ts', "import 'express'", 'no-restricted-imports'],
    ['src/core/planted.ts', "import 'yargs'", 'no-restricted-imports'],
    ['src/core/planted.ts', "import 'msw/node'", 'no-restricted-imports'],
    ['src/core/planted.ts', "import 'msw/browser'", 'no-restricted-imports'],
    ['src/core/planted.ts', "import 'petstore-sandbox/node'", 'no-restricted-imports'],
    [
      'src/core/planted.ts',
      "import { createSandboxApp } from '../express/index.js'\nexport { createSandboxApp }",
      'no-restricted-imports',
    ],
    [
      'src/core/planted.ts',
      "import type {} from '../node/files.js'",
      'no-restricted-imports',
    ],
    ['src/core/planted.ts', "export * from '../index.js'", 'no-restricted-imports'],
    [
      'src/core/planted.ts',
      'export const href = window.location.href',
      'no-restricted-globals',
    ],
    [
      'src/core/planted.ts',
      'export const title = document.title',
      'no-restricted-globals',
    ],
    [
      'src/core/planted.ts',
      'export const lang = navigator.language',
      'no-restricted-globals',
    ],
    [
      'src/core/planted.ts',
      "export const bytes = Buffer.from('x')",
      'no-restricted-globals',
    ],
    ['src/core/planted.ts', 'export const env = process.env', 'no-restricted-globals'],
    [
      'src/core/planted.ts',
      'export const w = globalThis.window',
      'no-restricted-properties',
    ],
    [
      'src/core/planted.ts',
      '/// <reference types="node" />',
      '@typescript-eslint/triple-slash-reference',
    ],
    // The core's unit tests may use Node, not the other folders.
    ['src/core/planted.test.ts', "import '../cli/main.js'", 'no-restricted-imports'],
    ['src/index.ts', "export * from './node/index.js'", 'no-restricted-imports'],
    ['src/node/planted.ts', "import '../cli/main.js'", 'no-restricted-imports'],
    ['src/node/planted.ts', "import '../express/index.js'", 'no-restricted-imports'],
    ['src/node/planted.ts', "import '../browser/index.js'", 'no-restricted-imports'],
    ['src/node/planted.ts', "import 'express'", 'no-restricted-imports'],
    [
      'src/node/file-store/planted.ts',
      "import '../../cli/main.js'",
      'no-restricted-imports',
    ],
    [
      'src/node/file-store/planted.ts',
      "import '../../express/index.js'",
      'no-restricted-imports',
    ],
    [
      'src/node/file-store/planted.ts',
      "import '../../browser/index.js'",
      'no-restricted-imports',
    ],
    ['src/node/file-store/planted.ts', "import 'express'", 'no-restricted-imports'],
    [
      'src/core/planted.ts',
      "import '../node/file-store/index.js'",
      'no-restricted-imports',
    ],
    ['src/browser/planted.ts', "import '../node/index.js'", 'no-restricted-imports'],
    ['src/browser/planted.ts', "import 'node:fs'", 'no-restricted-imports'],
    ['src/browser/planted.ts', "import 'fs'", 'no-restricted-imports'],
    ['src/browser/planted.ts', "import 'msw/node'", 'no-restricted-imports'],
    ['src/browser/planted.ts', 'export const env = process.env', 'no-restricted-globals'],
    ['src/express/planted.ts', "import '../cli/main.js'", 'no-restricted-imports'],
    ['src/express/planted.ts', "import '../browser/index.js'", 'no-restricted-imports'],
    ['src/cli/planted.ts', "import '../browser/index.js'", 'no-restricted-imports'],
  ])('%s: %s', async (filePath, code, rule) => {
    expect(await errors(filePath, code)).toContain(rule)
  })

  test.each([
    [
      'src/core/planted.ts',
      [
        "import apiKeys from '../../fixtures/api-keys.json'",
        "import slowNetwork from '../../scenarios/slow-network.json'",
        "import { Collection } from '@msw/data'",
        "import { http } from 'msw'",
        "import { SandboxError } from './errors.js'",
        'export { apiKeys, slowNetwork, Collection, http, SandboxError }',
        'export const reply = new Response(new TextDecoder().decode(new Uint8Array([120])), { headers: new Headers() })',
        // A local named like a browser global is not the global.
        "const window = 'minute'",
        'export { window }',
      ].join('\n'),
    ],
    [
      'src/core/planted.test.ts',
      "import { readFileSync } from 'node:fs'\nexport const bytes = Buffer.from(readFileSync(process.argv[1] ?? ''))",
    ],
    ['src/index.ts', "export * from './core/sandbox.js'"],
    [
      'src/node/planted.ts',
      "import 'node:fs'\nimport 'msw/node'\nimport '../core/sandbox.js'\nimport '../index.js'",
    ],
    [
      'src/node/file-store/planted.ts',
      "import 'node:fs'\nimport '../../core/sandbox.js'\nimport '../../index.js'\nimport '../files.js'\nimport './lock.js'",
    ],
    [
      'src/browser/planted.ts',
      "import 'msw/browser'\nimport '../core/sandbox.js'\nexport const href = window.location.href",
    ],
    [
      'src/express/planted.ts',
      "import 'node:http'\nimport 'express'\nimport '../core/sandbox.js'\nimport '../node/files.js'",
    ],
    [
      'src/cli/planted.ts',
      "import 'yargs'\nimport '../core/sandbox.js'\nimport '../node/files.js'\nimport '../node/file-store/index.js'\nimport '../express/index.js'",
    ],
  ])('%s: the allowed imports pass', async (filePath, code) => {
    expect(await errors(filePath, code)).toEqual([])
  })

  // The direction patterns match `../<folder>/` from a file's own folder, which holds
  // only while every source file sits directly in src or in one of these folders, or in
  // a deeper folder that has its own rule (`../../<folder>/`, eslint.config.js).
  test('src keeps the layout the patterns assume', () => {
    const folders = new Set(['core', 'node', 'browser', 'express', 'cli', 'openapi'])
    const nested = new Set(['node/file-store'])
    const misplaced = readdirSync(join(root, 'src'), {
      recursive: true,
      encoding: 'utf8',
    })
      .filter((path) => /\.[cm]?[jt]sx?$/.test(path))
      .map((path) => path.split(sep))
      .filter(
        (parts) =>
          !(
            parts.length === 1 ||
            (parts.length === 2 && folders.has(parts[0]!)) ||
            (parts.length === 3 && nested.has(`${parts[0]}/${parts[1]}`))
          ),
      )
      .map((parts) => parts.join('/'))
    expect(misplaced).toEqual([])
  })
})

describe('the core type-checks without Node', () => {
  // In-memory files beside the real core, in one program built from tsconfig.core.json:
  // the real core's imports are in it, so a dependency's `/// <reference types="node" />`
  // would bring Node's globals back and fail these tests.
  const planted: Record<string, string> = {
    buffer: "export const bytes = Buffer.from('x')",
    process: 'export const env = process.env',
    require: "export const fs: unknown = require('node:fs')",
    'node-fs': "import { readFileSync } from 'node:fs'\nexport { readFileSync }",
    'node-fs-side-effect': "import 'node:fs'",
    'bare-fs': "import 'fs'",
    clean: [
      "import { SandboxError } from './errors.js'",
      'export { SandboxError }',
      'export const reply = new Response(new TextDecoder().decode(new Uint8Array([120])))',
      "export const request = new Request('http://localhost/v1/pets', { headers: new Headers() })",
      'export const timer = setTimeout(() => {}, 0)',
    ].join('\n'),
  }
  const files = new Map(
    Object.entries(planted).map(([name, code]) => [
      join(root, 'src/core', `planted-${name}.ts`).split(sep).join('/'),
      code,
    ]),
  )
  let program: ts.Program

  beforeAll(() => {
    const config = ts.getParsedCommandLineOfConfigFile(
      join(root, 'tsconfig.core.json'),
      undefined,
      {
        ...ts.sys,
        onUnRecoverableConfigFileDiagnostic: (diagnostic) => {
          throw new Error(ts.flattenDiagnosticMessageText(diagnostic.messageText, '\n'))
        },
      },
    )
    if (!config) throw new Error('Failed to read tsconfig.core.json.')
    expect(config.errors).toEqual([])
    const host = ts.createCompilerHost(config.options)
    const { getSourceFile, fileExists, readFile } = host
    host.getSourceFile = (fileName, languageVersion, ...rest) => {
      const code = files.get(fileName)
      return code === undefined
        ? getSourceFile.call(host, fileName, languageVersion, ...rest)
        : ts.createSourceFile(fileName, code, languageVersion)
    }
    host.fileExists = (fileName) => files.has(fileName) || fileExists.call(host, fileName)
    host.readFile = (fileName) => files.get(fileName) ?? readFile.call(host, fileName)
    program = ts.createProgram({
      rootNames: [...config.fileNames, ...files.keys()],
      options: config.options,
      host,
    })
  })

  /** The type errors of one planted file. */
  function typeErrors(name: string): string[] {
    const fileName = [...files.keys()].find((path) =>
      path.endsWith(`/planted-${name}.ts`),
    )!
    const sourceFile = program.getSourceFile(fileName)
    if (!sourceFile) throw new Error(`Failed to find ${fileName} in the program.`)
    return ts
      .getPreEmitDiagnostics(program, sourceFile)
      .filter((diagnostic) => diagnostic.category === ts.DiagnosticCategory.Error)
      .map((diagnostic) => ts.flattenDiagnosticMessageText(diagnostic.messageText, '\n'))
  }

  test('no file of @types/node is in the program', () => {
    const nodeTypes = program
      .getSourceFiles()
      .map((file) => file.fileName)
      .filter((fileName) => fileName.includes('/@types/node/'))
    expect(nodeTypes).toEqual([])
  })

  test.each([
    ['buffer', "Cannot find name 'Buffer'"],
    ['process', "Cannot find name 'process'"],
    ['require', "Cannot find name 'require'"],
    ['node-fs', "Cannot find module 'node:fs'"],
    ['node-fs-side-effect', "Cannot find module 'node:fs'"],
    ['bare-fs', "Cannot find module 'fs'"],
  ])('planted %s fails: %s', (name, message) => {
    expect(typeErrors(name)).toEqual([expect.stringContaining(message)])
  })

  test('Request, Response, TextDecoder and timers type-check', () => {
    expect(typeErrors('clean')).toEqual([])
  })
})
