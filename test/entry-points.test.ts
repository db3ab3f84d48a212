import { mkdtempSync, mkdirSync, symlinkSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { build } from 'esbuild'
import { expect, test } from 'vitest'

// A project that depends on the package, resolved through its real exports map.
const project = mkdtempSync(join(tmpdir(), 'entry-points-'))
mkdirSync(join(project, 'node_modules'))
symlinkSync(resolve('.'), join(project, 'node_modules', 'petstore-sandbox'), 'dir')

async function bundleForBrowser(entry: string, name: string) {
  const result = await build({
    stdin: {
      contents: `import { ${name} } from ${JSON.stringify(entry)}\nglobalThis.used = ${name}`,
      resolveDir: project,
    },
    bundle: true,
    write: false,
    platform: 'browser',
    format: 'esm',
    logLevel: 'silent',
    external: ['msw', 'msw/*', 'express', 'yargs', 'node:*'],
  }).catch((error: { errors?: Array<{ text: string }> }) => {
    throw new Error(`esbuild: ${error.errors?.map((entry) => entry.text).join('; ')}`)
  })
  return result.outputFiles[0]?.text ?? ''
}

test.each([
  [
    'petstore-sandbox/node',
    'setupSandboxServer',
    /Failed to import "petstore-sandbox\/node".*Import "petstore-sandbox\/browser"/,
  ],
  [
    'petstore-sandbox/express',
    'createSandboxApp',
    /Failed to import "petstore-sandbox\/express".*Import "petstore-sandbox\/browser"/,
  ],
])(
  '%s bundled for a browser fails with a message naming the entry to use',
  async (entry, name, message) => {
    const code = await bundleForBrowser(entry, name)
    expect(code).toMatch(message)
    expect(() => new Function(code.replace(/^export .*$/gm, ''))()).toThrow(message)
  },
)

test('petstore-sandbox/browser imported in Node fails with a message naming the entry to use', async () => {
  const url = new URL(
    `file://${join(project, 'node_modules/petstore-sandbox/dist/browser/wrong-runtime.js')}`,
  )
  await expect(import(url.href)).rejects.toThrow(/Import "petstore-sandbox\/node"/)
  const { execFileSync } = await import('node:child_process')
  let output = ''
  try {
    execFileSync(
      process.execPath,
      ['--input-type=module', '-e', "await import('petstore-sandbox/browser')"],
      { cwd: project, stdio: 'pipe' },
    )
  } catch (error) {
    output = String((error as { stderr: Buffer }).stderr)
  }
  expect(output).toMatch(
    /Failed to import "petstore-sandbox\/browser".*Import "petstore-sandbox\/node"/,
  )
})

test('the core entry bundles for a browser without Node built-ins', async () => {
  const code = await bundleForBrowser('petstore-sandbox', 'createSandbox')
  expect(code).toContain('createSandbox')
  expect(code).not.toMatch(/from ["']node:/)
})
