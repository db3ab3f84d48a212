import { afterAll, afterEach, describe, expect, test } from 'vitest'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { SCENARIO_NAMES } from 'petstore-sandbox'
import { FREE, killAll, removeCliBuild, runCli, startServer } from './cli-process.js'

afterEach(killAll)
afterAll(removeCliBuild)

async function fails(args: string[]) {
  const cli = await runCli(args)
  const { code } = await cli.exited
  const lines = cli.stderr().trimEnd().split('\n')
  return { code, lines, stdout: cli.stdout() }
}

describe('a wrong command line is one line naming the problem and the fix, and a non-zero exit', () => {
  test.each([
    [['--prot', '4010'], /Unknown option --prot\. Did you mean --port\?/],
    [['--port', 'abc'], /--port must be a port number from 0 to 65535.*got "abc"/],
    [['--port', '70000'], /--port must be a port number/],
    [['--port'], /--port needs a value/],
    [
      ['--latency', '500-100'],
      /--latency must be milliseconds \(250\) or a range \(100-500\)/,
    ],
    [['--count', '-1'], /--count must be a number of pets from 0 to 1000000/],
    [['--log-format', 'xml'], /--log-format must be pretty or json, got "xml"/],
    [['--seed', '4.2'], /--seed must be an integer/],
    [['--port', '1', '--port', '2'], /given twice/],
    [['serve'], /Unknown command "serve"/],
    [['-p'], /--port needs a value, e\.g\. --port 4010/],
    [['--port='], /--port needs a value/],
    [['--port', '1', '-p', '2', '--port', '3'], /--port was given 3 times/],
    [['--logformat', 'json'], /Unknown option --logformat\. Did you mean --log-format\?/],
    [['--seed', '1e3'], /--seed must be an integer such as 42, got "1e3"/],
    [
      ['--max-journal-bytes', '32MiB'],
      /--max-journal-bytes must be a number of bytes from 0 to 4294967296, got "32MiB"/,
    ],
    [['--max-journal-bytes', '-1'], /--max-journal-bytes must be a number of bytes/],
    [
      ['--max-journal-bytes'],
      /--max-journal-bytes needs a value, e\.g\. --max-journal-bytes 33554432/,
    ],
    [['--latency', '1-2-3'], /--latency must be .*, got "1-2-3"/],
    [['scenarios', '--port', '1'], /--port does not apply to petstore-sandbox scenarios/],
    [
      ['scenarios', '--scenario'],
      /--scenario needs a value, e\.g\. --scenario \.\/my-scenario\.json/,
    ],
  ])('%j', async (args, message) => {
    const { code, lines, stdout } = await fails(args)
    expect(code).toBe(2)
    expect(lines).toHaveLength(1)
    expect(lines[0]).toMatch(/^petstore-sandbox: /)
    expect(lines[0]).toMatch(message)
    expect(lines[0]).toMatch(/petstore-sandbox --help/)
    expect(stdout).toBe('')
  })

  test.each([
    ['rate-limitted', 'rate-limited'],
    ['rate-limit', 'rate-limited'],
    ['expired', 'expired-key'],
  ])(
    'an unknown scenario name %j is a wrong command line (exit 2), suggests %j and lists the known ones',
    async (typed, meant) => {
      const { code, lines } = await fails(['--scenario', typed, '--port', '0'])
      expect(code).toBe(2)
      expect(lines).toHaveLength(1)
      expect(lines[0]).toContain(`Unknown scenario "${typed}". Did you mean ${meant}?`)
      for (const name of SCENARIO_NAMES) expect(lines[0]).toContain(name)
      expect(lines[0]).toMatch(/--scenario \.\/my-scenario\.json/)
    },
  )

  test('a scenario name close to none suggests nothing', async () => {
    const { code, lines } = await fails(['--scenario', 'chaos', '--port', '0'])
    expect(code).toBe(2)
    expect(lines[0]).toMatch(
      /^petstore-sandbox: Unknown scenario "chaos"\. The scenarios are /,
    )
  })

  test('a file given without ./ is read as a name; the message says how to load the file', async () => {
    const folder = mkdtempSync(join(tmpdir(), 'petstore-cli-'))
    writeFileSync(join(folder, 'flaky'), '{}')
    try {
      const cli = await runCli(['--scenario', 'flaky', '--port', '0'], { cwd: folder })
      expect((await cli.exited).code).toBe(2)
      expect(cli.stderr()).toMatch(
        /Unknown scenario "flaky"\..* give its path: --scenario \.\/flaky\./,
      )
    } finally {
      rmSync(folder, { recursive: true, force: true })
    }
  })

  test('a scenario file that is not there is a failure at run time (exit 1) naming the file', async () => {
    const folder = mkdtempSync(join(tmpdir(), 'petstore-cli-'))
    const file = join(folder, 'gone.json')
    try {
      const { code, lines } = await fails(['--scenario', file, '--port', '0'])
      expect(code).toBe(1)
      expect(lines).toHaveLength(1)
      expect(lines[0]).toContain(file)
    } finally {
      rmSync(folder, { recursive: true, force: true })
    }
  })

  test('a scenario file with a mistake names the file, the field and what is allowed (exit 1)', async () => {
    const folder = mkdtempSync(join(tmpdir(), 'petstore-cli-'))
    const file = join(folder, 'broken.json')
    writeFileSync(
      file,
      JSON.stringify({ name: 'broken', description: 'x', latencyMs: 5 }),
    )
    try {
      const { code, lines } = await fails(['--scenario', file, '--port', '0'])
      expect(code).toBe(1)
      expect(lines).toHaveLength(1)
      expect(lines[0]).toContain(file)
      expect(lines[0]).toContain('latencyMs')
    } finally {
      rmSync(folder, { recursive: true, force: true })
    }
  })
})

test('--version prints the package version', async () => {
  const cli = await runCli(['--version'])
  expect((await cli.exited).code).toBe(0)
  expect(cli.stdout().trim()).toMatch(/^\d+\.\d+\.\d+/)
})

test.each([[['--help']], [['scenarios', '--help']], [['check', '--help']]])(
  '%j states the exit codes: 2 for a wrong command line, 1 for a failure at run time',
  async (args) => {
    const cli = await runCli(args)
    expect((await cli.exited).code).toBe(0)
    const help = cli.stdout().replace(/\s+/g, ' ')
    expect(help).toMatch(
      /Exit codes: 0 .*; 1 .*failure at run time.*; 2 .*wrong command line/,
    )
    expect(help).toMatch(
      /wrong command line \(an unknown command, option or scenario name/,
    )
    expect(help.match(/Exit codes:/g)).toHaveLength(1)
  },
)

test('--help lists every flag', async () => {
  const cli = await runCli(['--help'])
  expect((await cli.exited).code).toBe(0)
  for (const flag of [
    '--port',
    '--host',
    '--seed',
    '--count',
    '--scenario',
    '--fixtures',
    '--latency',
    '--persist',
    '--load',
    '--watch',
    '--quiet',
    '--log-format',
    '--max-journal-bytes',
    'scenarios',
  ]) {
    expect(cli.stdout()).toContain(flag)
  }
})

test("--max-journal-bytes sets the journals' budget: at 0, each session keeps its last 10", async () => {
  const { origin } = await startServer(['--max-journal-bytes', '0'])
  for (let index = 1; index <= 15; index++) {
    const response = await fetch(`${origin}/v1/pets?limit=${index}`, { headers: FREE })
    expect(response.status).toBe(200)
  }
  const response = await fetch(`${origin}/__sandbox/requests`)
  const { requests } = (await response.json()) as { requests: Array<{ path: string }> }
  expect(requests.map((entry) => entry.path)).toEqual(
    Array.from({ length: 10 }, (_, index) => `/v1/pets?limit=${15 - index}`),
  )
})

describe('petstore-sandbox scenarios', () => {
  test('lists every built-in scenario with its description', async () => {
    const cli = await runCli(['scenarios'])
    expect((await cli.exited).code).toBe(0)
    for (const name of SCENARIO_NAMES)
      expect(cli.stdout()).toMatch(new RegExp(`^${name} +\\S.{20,}$`, 'm'))
    expect(cli.stdout()).toContain('X-Sandbox-Scenario')
  })

  test('with --scenario <file>, lists that one too', async () => {
    const folder = mkdtempSync(join(tmpdir(), 'petstore-cli-'))
    const file = join(folder, 'flaky.json')
    writeFileSync(
      file,
      JSON.stringify({
        name: 'flaky-get',
        description: 'getPet answers 503 every time',
        errors: { getPet: { status: 503, code: 'service_unavailable' } },
      }),
    )
    try {
      const cli = await runCli(['scenarios', '--scenario', file])
      expect((await cli.exited).code).toBe(0)
      expect(cli.stdout()).toMatch(/^flaky-get +getPet answers 503 every time$/m)
    } finally {
      rmSync(folder, { recursive: true, force: true })
    }
  })
})
