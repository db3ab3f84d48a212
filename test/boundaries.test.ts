import { readdirSync, readFileSync } from 'node:fs'
import { join, sep } from 'node:path'
import { fileURLToPath } from 'node:url'
import { ESLint } from 'eslint'
import ts from 'typescript'
import { beforeAll, describe, expect, test } from 'vitest'
import { ROOMS, roomOf } from '../scripts/eslint-rooms.js'

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
      'rooms/direction',
    ],
    ['src/core/planted.ts', "import type {} from '../node/files.js'", 'rooms/direction'],
    ['src/core/planted.ts', "export * from '../index.js'", 'rooms/direction'],
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
    ['src/core/planted.test.ts', "import '../cli/main.js'", 'rooms/direction'],
    ['src/index.ts', "export * from './node/index.js'", 'no-restricted-imports'],
    ['src/node/planted.ts', "import '../cli/main.js'", 'rooms/direction'],
    ['src/node/planted.ts', "import '../express/index.js'", 'rooms/direction'],
    ['src/node/planted.ts', "import '../browser/index.js'", 'rooms/direction'],
    ['src/node/planted.ts', "import 'express'", 'no-restricted-imports'],
    ['src/node/file-store/planted.ts', "import '../../cli/main.js'", 'rooms/direction'],
    [
      'src/node/file-store/planted.ts',
      "import '../../express/index.js'",
      'rooms/direction',
    ],
    [
      'src/node/file-store/planted.ts',
      "import '../../browser/index.js'",
      'rooms/direction',
    ],
    ['src/node/file-store/planted.ts', "import 'express'", 'no-restricted-imports'],
    ['src/core/planted.ts', "import '../node/file-store/index.js'", 'rooms/direction'],
    ['src/browser/planted.ts', "import '../node/index.js'", 'rooms/direction'],
    ['src/browser/planted.ts', "import 'node:fs'", 'no-restricted-imports'],
    ['src/browser/planted.ts', "import 'fs'", 'no-restricted-imports'],
    ['src/browser/planted.ts', "import 'msw/node'", 'no-restricted-imports'],
    ['src/browser/planted.ts', 'export const env = process.env', 'no-restricted-globals'],
    ['src/express/planted.ts', "import '../cli/main.js'", 'rooms/direction'],
    ['src/express/planted.ts', "import '../browser/index.js'", 'rooms/direction'],
    ['src/cli/planted.ts', "import '../browser/index.js'", 'rooms/direction'],
    // The core's rooms import downwards only, type-only imports included.
    ['src/core/common/planted.ts', "import '../world/world.js'", 'rooms/direction'],
    [
      'src/core/world/planted.ts',
      "import type { ApiCall } from '../api/api-call.js'\nexport type { ApiCall }",
      'rooms/direction',
    ],
    ['src/core/control/planted.ts', "import '../api/api.js'", 'rooms/direction'],
    ['src/core/api/planted.ts', "import '../pipeline/pipeline.js'", 'rooms/direction'],
    ['src/core/pipeline/planted.ts', "import '../sandbox.js'", 'rooms/direction'],
    ['src/core/data/planted.ts', "export * from '../../index.js'", 'rooms/direction'],
    // No file reaches itself: schemas.ts imports limits.ts, and findings.ts is below the
    // report card (a type-only import closes a circle too).
    ['src/core/common/limits.ts', "import './schemas.js'", 'rooms/no-circle'],
    [
      'src/core/coach/findings.ts',
      "import type { Report } from './report-card.js'\nexport type { Report }",
      'rooms/no-circle',
    ],
    ['src/core/common/planted.ts', "import './planted.js'", 'rooms/no-circle'],
    // A function a reader can hold: 101 lines is one too many (100 pass, below).
    [
      'src/core/common/planted.ts',
      `export function long() {\n${'  void 0\n'.repeat(99)}}`,
      'max-lines-per-function',
    ],
  ])('%s: %s', async (filePath, code, rule) => {
    expect(await errors(filePath, code)).toContain(rule)
  })

  test.each([
    [
      'src/core/data/planted.ts',
      "import apiKeys from '../../../fixtures/api-keys.json'\nexport { apiKeys }",
    ],
    [
      'src/core/scenarios/planted.ts',
      "import slowNetwork from '../../../scenarios/slow-network.json'\nexport { slowNetwork }",
    ],
    [
      'src/core/api/planted.ts',
      [
        "import type { SandboxWorld } from '../world/world.js'",
        "import { Journal } from '../coach/journal.js'",
        "import { SandboxError } from '../common/errors.js'",
        'export type { SandboxWorld }',
        'export { Journal, SandboxError }',
        `export function short() {\n${'  void 0\n'.repeat(98)}}`,
      ].join('\n'),
    ],
    [
      'src/core/planted.ts',
      [
        "import { Collection } from '@msw/data'",
        "import { http } from 'msw'",
        "import { SandboxError } from './common/errors.js'",
        "import { Pipeline } from './pipeline/pipeline.js'",
        'export { Collection, http, SandboxError, Pipeline }',
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

  // Every source file is in a room of scripts/eslint-rooms.js (the rules know where it
  // may import from), and no folder is a bag: at most 20 source files directly in it.
  test('every file of src is in a room, and no folder holds more than 20 source files', () => {
    const sources = readdirSync(join(root, 'src'), { recursive: true, encoding: 'utf8' })
      .map((path) => `src/${path.split(sep).join('/')}`)
      .filter((path) => /\.[cm]?[jt]sx?$/.test(path) && !/\.test(-support)?\./.test(path))
    expect(sources.filter((path) => roomOf(path) === undefined)).toEqual([])
    const perFolder = new Map<string, number>()
    for (const path of sources) {
      const folder = path.slice(0, path.lastIndexOf('/'))
      perFolder.set(folder, (perFolder.get(folder) ?? 0) + 1)
    }
    expect([...perFolder].filter(([, count]) => count > 20)).toEqual([])
  })

  // Each room of the core says what lives there and what it may import.
  test('each room of the core opens with what it holds and may import', () => {
    const rooms = Object.keys(ROOMS).filter((room) => room.startsWith('src/core/'))
    for (const room of rooms) {
      const readme = readFileSync(join(root, room, 'README.md'), 'utf8')
      expect(readme, room).toMatch(/^# src\/core\/\w+/)
      expect(readme, room).toContain('May import')
    }
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
      "import { SandboxError } from './common/errors.js'",
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
