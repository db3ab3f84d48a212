// Child processes of the benchmark: every one is tracked and killed when the run ends,
// fails or is interrupted, so no server is left listening.
import { clearTimeout, setTimeout } from 'node:timers'
import { spawn } from 'node:child_process'
import { readFileSync, writeFileSync } from 'node:fs'
import { request } from 'node:http'
import { join } from 'node:path'
import { createServer } from 'node:net'
import { performance } from 'node:perf_hooks'
import { setTimeout as sleep } from 'node:timers/promises'

const running = new Set()

export function killAll() {
  for (const child of running) {
    try {
      child.kill('SIGKILL')
    } catch {
      // already gone
    }
  }
  running.clear()
}

let guarded = false

/** Kills every child on exit, on an uncaught error and on SIGINT/SIGTERM. */
export function guardChildren() {
  if (guarded) return
  guarded = true
  process.on('exit', killAll)
  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP']) {
    process.on(signal, () => {
      killAll()
      process.stderr.write(`\nbench: interrupted (${signal}), child processes killed\n`)
      process.exit(130)
    })
  }
  process.on('uncaughtException', (error) => {
    killAll()
    process.stderr.write(`bench: ${error?.stack ?? error}\n`)
    process.exit(1)
  })
}

/**
 * Starts a Node child process. Its stderr is kept (the last 4 KiB) so a crash can be
 * reported; `exited` resolves with the exit code or signal.
 */
/**
 * The built CLI's arguments as every section starts it: loopback, seed 42, no request log,
 * then `extra` (e.g. ['--persist', file]).
 */
export function sandboxArgs(root, port, extra = []) {
  return [
    join(root, 'bin', 'petstore-sandbox.js'),
    '--port',
    String(port),
    '--host',
    '127.0.0.1',
    '--seed',
    '42',
    '--quiet',
    ...extra,
  ]
}

export function startNode(args, { stdout = false, cwd, wrap = [], env } = {}) {
  // `wrap`: a program that runs Node, and its arguments (valgrind for
  // bench/instructions-per-request.js); `env`: variables added to this process's.
  const [command, ...wrapArgs] = [...wrap, process.execPath]
  const child = spawn(command, [...wrapArgs, ...args], {
    cwd,
    env: env === undefined ? process.env : { ...process.env, ...env },
    stdio: ['ignore', stdout ? 'pipe' : 'ignore', 'pipe'],
  })
  running.add(child)
  let stderr = ''
  child.stderr.setEncoding('utf8')
  child.stderr.on('data', (chunk) => {
    stderr = (stderr + chunk).slice(-4096)
  })
  let output = ''
  if (stdout) {
    child.stdout.setEncoding('utf8')
    child.stdout.on('data', (chunk) => {
      output += chunk
    })
  }
  const exited = new Promise((resolve) => {
    child.on('exit', (code, signal) => {
      running.delete(child)
      resolve(code ?? signal)
    })
    child.on('error', (error) => {
      running.delete(child)
      resolve(error.message)
    })
  })
  return {
    child,
    exited,
    get stderr() {
      return stderr.trim()
    },
    get stdout() {
      return output
    },
    get alive() {
      return child.exitCode === null && child.signalCode === null
    },
    async kill() {
      if (this.alive) child.kill('SIGKILL')
      await exited
    },
  }
}

/** Runs a Node script that prints one JSON line on stdout, and returns that object. */
export async function runJsonChild(args, timeoutMs = 60_000) {
  const proc = startNode(args, { stdout: true })
  const timer = setTimeout(() => proc.child.kill('SIGKILL'), timeoutMs)
  const code = await proc.exited
  clearTimeout(timer)
  if (code !== 0) {
    throw new Error(
      `node ${args.join(' ')} failed (${code}${code === 'SIGKILL' ? `, killed after ${timeoutMs} ms` : ''}): ${proc.stderr || proc.stdout}`,
    )
  }
  const line = proc.stdout.trim().split('\n').at(-1)
  return JSON.parse(line)
}

/** Peak resident set size of a live process in MB (VmHWM), or undefined. */
export function peakRssMb(pid) {
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8')
    const kb = Number(/^VmHWM:\s+(\d+)\s+kB/m.exec(status)?.[1])
    return Number.isFinite(kb) ? kb / 1024 : undefined
  } catch {
    return undefined
  }
}

/** A port free on 127.0.0.1 right now. */
export function freePort() {
  return new Promise((resolve, reject) => {
    const server = createServer()
    server.once('error', reject)
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address()
      server.close(() => resolve(port))
    })
  })
}

/** One GET on a new connection; resolves with the status, or 0 when it cannot connect. */
export function getStatus(port, path, headers) {
  return new Promise((resolve) => {
    const req = request(
      { host: '127.0.0.1', port, path, headers, agent: false },
      (res) => {
        res.resume()
        res.on('end', () => resolve(res.statusCode))
        res.on('error', () => resolve(0))
      },
    )
    req.on('error', () => resolve(0))
    req.setTimeout(5000, () => req.destroy())
    req.end()
  })
}

/** One GET on a new connection; resolves with status and body text. */
export function getText(port, path, headers) {
  return new Promise((resolve, reject) => {
    const req = request(
      { host: '127.0.0.1', port, path, headers, agent: false },
      (res) => {
        let body = ''
        res.setEncoding('utf8')
        res.on('data', (chunk) => (body += chunk))
        res.on('end', () => resolve({ status: res.statusCode, body }))
      },
    )
    req.on('error', reject)
    req.end()
  })
}

/**
 * Polls GET `path` every `intervalMs` until it answers 200; returns the milliseconds
 * from `startedAt`. Throws if the process exits or nothing answers within `timeoutMs`.
 */
export async function waitFor200(
  proc,
  port,
  path,
  headers,
  startedAt,
  { intervalMs = 5, timeoutMs = 20_000 } = {},
) {
  for (;;) {
    const status = await getStatus(port, path, headers)
    if (status === 200) return performance.now() - startedAt
    if (!proc.alive) throw new Error(`the server exited before answering: ${proc.stderr}`)
    if (status !== 0) throw new Error(`GET ${path} answered ${status}, expected 200`)
    if (performance.now() - startedAt > timeoutMs)
      throw new Error(`no 200 from GET ${path} within ${timeoutMs} ms: ${proc.stderr}`)
    await sleep(intervalMs)
  }
}

/**
 * Writes the 20 pets the bare Express and msw floor servers answer GET
 * /v1/pets?limit=20 with (the sandbox's, seed 42) to `dir`/pets.json; returns the path.
 */
export async function writePets(dir) {
  const { createSandbox } = await import('../../dist/index.js')
  const sandbox = createSandbox({ seed: 42 })
  await sandbox.ready
  const file = join(dir, 'pets.json')
  writeFileSync(file, JSON.stringify(sandbox.db.pets.all().slice(0, 20)))
  return file
}
