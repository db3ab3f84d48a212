import { spawn, type ChildProcess } from 'node:child_process'
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { build } from 'esbuild'
import { afterAll, afterEach, beforeEach } from 'vitest'

const ROOT = fileURLToPath(new URL('../..', import.meta.url))

/** A CLI process under test: its output so far, and ways to wait for it. */
export interface CliProcess {
  child: ChildProcess
  stdout(): string
  stderr(): string
  /** Resolves with the first stdout line matching, rejects if the process exits first. */
  line(pattern: RegExp): Promise<string>
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>
  /** Kills the process (SIGKILL) if it still runs. */
  kill(): Promise<void>
}

let runner: string | undefined
const children = new Set<CliProcess>()

/**
 * Bundles src/cli with esbuild (a few hundred ms) into node_modules/.cache, so the tests
 * run the current source as a real process, as the bin does with dist/ (the package
 * test covers the bin itself). Dependencies stay external and resolve from the repo.
 */
async function cliRunner(): Promise<string> {
  if (runner) return runner
  const folder = join(
    ROOT,
    'node_modules',
    '.cache',
    'petstore-sandbox-tests',
    `cli-${process.pid}`,
  )
  mkdirSync(folder, { recursive: true })
  await build({
    entryPoints: [join(ROOT, 'src/cli/index.ts')],
    outdir: folder,
    entryNames: 'cli',
    outExtension: { '.js': '.mjs' },
    // Split like tsup's build, so the server's dependencies load only when it starts.
    splitting: true,
    bundle: true,
    platform: 'node',
    format: 'esm',
    packages: 'external',
    logLevel: 'error',
  })
  writeFileSync(
    join(folder, 'run.mjs'),
    "import { main } from './cli.mjs'\nawait main(process.argv.slice(2))\n",
  )
  runner = join(folder, 'run.mjs')
  return runner
}

/** Removes the bundle; call in afterAll. */
export function removeCliBuild() {
  if (runner) rmSync(join(runner, '..'), { recursive: true, force: true })
  runner = undefined
}

/**
 * Runs the CLI with `args` (cwd: `cwd` or the repo). `fileSizeLimitKb` starts it under
 * `ulimit -f` (through bash): writes past the limit are cut short, then fail with EFBIG,
 * as on a full disk.
 */
export async function runCli(
  args: string[],
  /**
   * `fileSizeLimitKb`: run under `ulimit -f`; `pipeTo`: its output piped into a shell
   * command (`head -n 1`), the exit code still the CLI's.
   */
  options: { cwd?: string; fileSizeLimitKb?: number; pipeTo?: string } = {},
): Promise<CliProcess> {
  const { fileSizeLimitKb, pipeTo } = options
  const command: [string, string[]] =
    fileSizeLimitKb === undefined && pipeTo === undefined
      ? [process.execPath, [await cliRunner(), ...args]]
      : [
          'bash',
          [
            '-c',
            [
              fileSizeLimitKb === undefined ? '' : `ulimit -f ${fileSizeLimitKb} && `,
              pipeTo === undefined
                ? 'exec "$0" "$@"'
                : `"$0" "$@" | ${pipeTo}; exit \${PIPESTATUS[0]}`,
            ].join(''),
            process.execPath,
            await cliRunner(),
            ...args,
          ],
        ]
  const child = spawn(...command, {
    cwd: options.cwd ?? ROOT,
    env: { ...process.env, NO_COLOR: '1', FORCE_COLOR: '0' },
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  return track(child)
}

/** Wraps any child process (the installed bin too) the same way. */
export function track(child: ChildProcess): CliProcess {
  let out = ''
  let err = ''
  const waiters = new Set<() => void>()
  child.stdout?.setEncoding('utf8').on('data', (chunk: string) => {
    out += chunk
    for (const waiter of waiters) waiter()
  })
  child.stderr?.setEncoding('utf8').on('data', (chunk: string) => {
    err += chunk
  })
  let done = false
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>(
    (resolve) => {
      child.once('exit', (code, signal) => {
        // Let the pipes drain before anyone reads the output.
        setImmediate(() => {
          // Before the waiters: a line() still waiting must see the exit and reject.
          done = true
          resolve({ code, signal })
          for (const waiter of waiters) waiter()
        })
      })
    },
  )
  const process_: CliProcess = {
    child,
    stdout: () => out,
    stderr: () => err,
    exited,
    line(pattern) {
      return new Promise((resolve, reject) => {
        const check = () => {
          const found = out.split('\n').find((text) => pattern.test(text))
          if (found !== undefined) {
            waiters.delete(check)
            resolve(found)
          } else if (done) {
            waiters.delete(check)
            reject(
              new Error(
                `The CLI exited before printing ${pattern}.\nstdout: ${out}\nstderr: ${err}`,
              ),
            )
          }
        }
        waiters.add(check)
        check()
      })
    },
    async kill() {
      if (!done) child.kill('SIGKILL')
      await exited
      children.delete(process_)
    },
  }
  children.add(process_)
  return process_
}

/** Kills every process a test left running; call in afterEach. */
export async function killAll() {
  await Promise.all([...children].map((child) => child.kill()))
}

/**
 * The fixture of a file of CLI tests that write files: a fresh temporary folder before
 * each test (handed to `use`), every CLI the test left running killed and the folder
 * removed after it, and the CLI's build removed after the file.
 */
export function useTempFolder(prefix: string, use: (folder: string) => void) {
  let folder: string | undefined
  beforeEach(() => {
    folder = mkdtempSync(join(tmpdir(), prefix))
    use(folder)
  })
  afterEach(async () => {
    await killAll()
    if (folder !== undefined) rmSync(folder, { recursive: true, force: true })
  })
  afterAll(removeCliBuild)
}

/** Starts the server on a free port with JSON logs and waits until it is ready. */
export async function startServer(
  args: string[] = [],
  options: { cwd?: string; fileSizeLimitKb?: number } = {},
) {
  const cli = await runCli(
    ['--port', '0', '--host', '127.0.0.1', '--log-format', 'json', ...args],
    options,
  )
  const ready = JSON.parse(await cli.line(/"type":"ready"/)) as {
    url: string
    origin: string
  }
  return { cli, origin: ready.origin, api: ready.url }
}

/** The JSON lines of type `type` the server printed so far. */
export function events(cli: CliProcess, type: string): Array<Record<string, unknown>> {
  return cli
    .stdout()
    .split('\n')
    .filter((line) => line.startsWith('{'))
    .map((line) => JSON.parse(line) as Record<string, unknown>)
    .filter((event) => event.type === type)
}

export const FREE = { authorization: 'Bearer sandbox-free-key' }

/** Creates a pet on a server's API with the Free key: categoryId 2, plus `fields`. */
export const createPet = (
  api: string,
  name: string,
  fields: Record<string, unknown> = {},
) =>
  fetch(`${api}/pets`, {
    method: 'POST',
    headers: { ...FREE, 'content-type': 'application/json' },
    body: JSON.stringify({ name, categoryId: 2, ...fields }),
  })

/** The first 100 pets of a server's list, with the Free key. */
export const listPets = async (api: string) =>
  (await (await fetch(`${api}/pets?limit=100`, { headers: FREE })).json()) as Array<{
    id: number
    name: string
  }>

/**
 * Polls `check` until it returns a value other than undefined: for file-system events,
 * which have no other signal. Time-dependent behaviour uses the sandbox clock instead.
 */
export async function eventually<T>(
  check: () => Promise<T | undefined>,
  timeoutMs = 5000,
): Promise<T> {
  const deadline = Date.now() + timeoutMs
  for (;;) {
    const value = await check()
    if (value !== undefined) return value
    if (Date.now() > deadline) throw new Error(`Nothing changed within ${timeoutMs} ms.`)
    await new Promise((resolve) => setTimeout(resolve, 25))
  }
}
