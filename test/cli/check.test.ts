import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, afterEach, expect, test } from 'vitest'
import { killAll, removeCliBuild, runCli, startServer } from './cli-process.js'

// `petstore-sandbox check <base-url>` as a process: lines, summary, exit codes 0/1/2,
// the key never printed, JUnit and JSON for machines.

const servers: Server[] = []
const folder = mkdtempSync(join(tmpdir(), 'petstore-check-'))
afterEach(async () => {
  await killAll()
  for (const server of servers.splice(0)) {
    server.closeAllConnections()
    server.close()
  }
  delete process.env.PETSTORE_SANDBOX_CHECK_KEY
})
afterAll(() => {
  removeCliBuild()
  rmSync(folder, { recursive: true, force: true })
})

async function check(args: string[]) {
  const cli = await runCli(['check', ...args])
  const { code } = await cli.exited
  return { code, stdout: cli.stdout(), stderr: cli.stderr() }
}

async function rawServer(answer?: (res: import('node:http').ServerResponse) => void) {
  const server = createServer((_req, res) => answer?.(res))
  servers.push(server)
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`
}

test('against the standalone sandbox: a PASS line per check, the summary, exit 0, the key masked, JUnit written', async () => {
  const { api } = await startServer()
  process.env.PETSTORE_SANDBOX_CHECK_KEY = 'sandbox-enterprise-key'
  const junit = join(folder, 'check.xml')
  const { code, stdout, stderr } = await check([api, '--writes', '--junit', junit])
  expect(stderr).toBe('')
  expect(code).toBe(0)
  const lines = stdout.trimEnd().split('\n')
  expect(lines[0]).toMatch(
    /^Checking http:\/\/127\.0\.0\.1:\d+\/v1 with the key sand… \(22 characters\)/,
  )
  expect(lines[1]).toMatch(
    /^Sending at most 16 requests; X-RateLimit-Remaining \d+ of \d+/,
  )
  expect(lines.filter((line) => line.startsWith('PASS  '))).toHaveLength(22)
  expect(lines.at(-1)).toMatch(
    /^22 passed, 0 failed, 0 skipped; 16 requests in [\d.]+ s against/,
  )
  expect(stdout).not.toContain('sandbox-enterprise-key')
  const xml = readFileSync(junit, 'utf8')
  expect(xml).toMatch(
    /<testsuites name="petstore-sandbox check [^"]+" tests="22" failures="0" skipped="0"/,
  )
  expect(xml.match(/<testcase /g)).toHaveLength(22)
})

test('a server that answers HTML: FAIL lines with a repeat, exit 1, no stack trace; --json is one JSON report', async () => {
  const html = await rawServer((res) => {
    res.writeHead(200, { 'content-type': 'text/html' })
    res.end('<!doctype html><title>Sign in</title>')
  })
  const { code, stdout, stderr } = await check([html, '--key', 'a-real-secret-key'])
  expect(code).toBe(1)
  expect(stderr).toBe('')
  expect(stdout).toMatch(
    /^FAIL {2}listPets answers 200 with an array of Pets \[API document\]\n {6}expected: 200 with a JSON array of Pets.*\n {6}seen: {5}200 with text\/html where JSON was expected: "<!doctype html>/m,
  )
  expect(stdout).toContain(
    `repeat:   curl -i -H "Authorization: Bearer $PETSTORE_SANDBOX_CHECK_KEY" '${html}/pets'`,
  )
  expect(stdout).toMatch(/^DRIFT {1}listPets refuses limit=0/m)
  expect(stdout).not.toContain('a-real-secret-key')
  expect(stdout).not.toMatch(/\n\s+at /)
  const json = await check([html, '--key', 'a-real-secret-key', '--json'])
  expect(json.code).toBe(1)
  const report = JSON.parse(json.stdout)
  expect(report.ok).toBe(false)
  expect(report.summary.failed).toBeGreaterThan(0)
})

test('a server that hangs: ends within --timeout with a failure line, exit 1', async () => {
  const hang = await rawServer()
  const started = Date.now()
  const { code, stdout, stderr } = await check([hang, '--key', 'k', '--timeout', '2'])
  expect(Date.now() - started).toBeLessThan(6000)
  expect(code).toBe(1)
  expect(stderr).toBe('')
  expect(stdout).toMatch(/seen: {5}no answer within \d+ ms \(timeout\)/)
  expect(stdout).toMatch(/SKIP|FAIL/)
  expect(stdout.trimEnd().split('\n').at(-1)).toMatch(/^0 passed, \d+ failed/)
})

test('command-line mistakes exit 2 with one line; --help lists the command', async () => {
  for (const [args, message] of [
    [[], /check needs the base address of the API, ending in \/v1/],
    [
      ['http://127.0.0.1:1/v1'],
      /check needs an API key: --key <api-key>, or PETSTORE_SANDBOX_CHECK_KEY/,
    ],
    [['ftp://example.com/v1', '--key', 'k'], /an http\(s\) URL ending in \/v1/],
    [
      ['http://127.0.0.1:1/v1', '--key', 'k', '--pace', 'fast'],
      /--pace must be milliseconds from 0 to 600000, got "fast"/,
    ],
    [
      ['http://127.0.0.1:1/v1', '--key', 'k', '--timeout', '0'],
      /--timeout must be seconds from 1 to 3600/,
    ],
    [
      ['http://127.0.0.1:1/v1', '--key', 'k', '--writs'],
      /Unknown option --writs\. Did you mean --writes\?/,
    ],
  ] as const) {
    const { code, stderr } = await check([...args])
    expect(code, args.join(' ')).toBe(2)
    expect(stderr.trimEnd().split('\n'), args.join(' ')).toHaveLength(1)
    expect(stderr, args.join(' ')).toMatch(message)
  }
  const help = await runCli(['--help'])
  await help.exited
  expect(help.stdout()).toMatch(
    /petstore-sandbox check <base-url>\s+Check a live deployment/,
  )
  const checkHelp = await runCli(['check', '--help'])
  await checkHelp.exited
  for (const flag of [
    '--key',
    '--writes',
    '--rate-limits',
    '--pace',
    '--timeout',
    '--json',
    '--junit',
  ])
    expect(checkHelp.stdout()).toContain(flag)
})

test('a reader that stops early (| head -n 1): the run goes on to its exit code, no EPIPE stack trace', async () => {
  const { api } = await startServer()
  // Paced, so that lines are written after head has gone.
  const cli = await runCli(
    ['check', api, '--key', 'sandbox-enterprise-key', '--pace', '50'],
    {
      pipeTo: 'head -n 1',
    },
  )
  const { code } = await cli.exited
  expect(cli.stdout()).toMatch(
    /^Checking http:\/\/127\.0\.0\.1:\d+\/v1 with the key sand…/,
  )
  expect(cli.stdout().trimEnd().split('\n')).toHaveLength(1)
  expect(cli.stderr()).toBe('')
  expect(code).toBe(0)
})
