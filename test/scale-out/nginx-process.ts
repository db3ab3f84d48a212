import { execFileSync, spawn, type ChildProcess } from 'node:child_process'
import { existsSync, readFileSync } from 'node:fs'
import { createServer, type AddressInfo } from 'node:net'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'

const ROOT = fileURLToPath(new URL('../..', import.meta.url))
const EXAMPLE = join(ROOT, 'examples/scale-out')

/** Where Debian puts nginx; PATH first, since a user's shell may not list /usr/sbin. */
export function findNginx(): string | undefined {
  for (const folder of [...(process.env.PATH ?? '').split(':'), '/usr/sbin', '/sbin']) {
    if (folder && existsSync(join(folder, 'nginx'))) return join(folder, 'nginx')
  }
  return undefined
}

/** A port free on 127.0.0.1 right now. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer()
    server.once('error', reject)
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as AddressInfo
      server.close(() => resolve(port))
    })
  })
}

/** One line of the example's access log. */
export interface AccessLine {
  session: string
  upstream: string
  status: string
  request: string
}

/** nginx running the example's config in the foreground, as a child of the test. */
export interface NginxProcess {
  origin: string
  stderr(): string
  accessLog(): AccessLine[]
  stop(): Promise<void>
}

/**
 * Renders examples/scale-out with its own render.sh into `dir` and runs nginx on it in
 * the foreground (no daemon, no master process: one process to stop). `timeout` bounds
 * it, so it stops by itself even if the test runner dies.
 */
export async function startNginx(
  nginx: string,
  dir: string,
  replicas: string[],
  lifetimeSeconds = 300,
): Promise<NginxProcess> {
  const port = await freePort()
  execFileSync('bash', [
    join(EXAMPLE, 'render.sh'),
    dir,
    `127.0.0.1:${port}`,
    ...replicas,
  ])
  const child: ChildProcess = spawn(
    'timeout',
    [
      '--kill-after=5',
      String(lifetimeSeconds),
      nginx,
      '-p',
      dir,
      '-c',
      'nginx.conf',
      '-e',
      'stderr',
      '-g',
      'daemon off; master_process off;',
    ],
    { stdio: ['ignore', 'ignore', 'pipe'] },
  )
  let stderr = ''
  child.stderr?.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk))
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()))
  let done = false
  void exited.then(() => (done = true))
  const origin = `http://127.0.0.1:${port}`

  const stop = async () => {
    if (!done) child.kill('SIGTERM')
    const killed = await Promise.race([
      exited.then(() => true),
      new Promise<boolean>((resolve) => setTimeout(() => resolve(false), 5000)),
    ])
    if (!killed) {
      // timeout itself did not stop: kill nginx by the pid it wrote, then timeout.
      try {
        process.kill(Number(readFileSync(join(dir, 'nginx.pid'), 'utf8')), 'SIGKILL')
      } catch {
        // already gone
      }
      child.kill('SIGKILL')
      await exited
    }
  }

  const deadline = Date.now() + 10_000
  for (;;) {
    if (done) throw new Error(`nginx exited before it answered:\n${stderr}`)
    const status = await fetch(`${origin}/__sandbox`).then(
      (response) => response.status,
      () => 0,
    )
    if (status === 200) break
    if (Date.now() > deadline) {
      await stop()
      throw new Error(`nginx did not answer 200 within 10 s (last ${status}):\n${stderr}`)
    }
    await new Promise((resolve) => setTimeout(resolve, 50))
  }

  return {
    origin,
    stderr: () => stderr,
    accessLog: () => {
      const file = join(dir, 'access.log')
      if (!existsSync(file)) return []
      return readFileSync(file, 'utf8')
        .split('\n')
        .filter((line) => line.startsWith('{'))
        .map((line) => JSON.parse(line) as AccessLine)
    },
    stop,
  }
}
