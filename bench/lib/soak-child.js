// The soak's server as a child process (bench/soak-server.js), sampled over IPC: the
// mixed traffic of bench/soak.js and the phases of bench/soak-give-back.js use it.
import { fork } from 'node:child_process'
import { resolve } from 'node:path'
import { fileURLToPath } from 'node:url'

const SERVER = fileURLToPath(new URL('../soak-server.js', import.meta.url))

/**
 * Forks bench/soak-server.js (the standalone app of `entry`, or of dist/, with
 * --expose-gc) and resolves once it listens: its port, `sample()` of its memory over
 * IPC, and `stop()`. `options` are the app's, past seed 42 and count 50.
 */
export function startSoakServer(entry, { leakBytes = 0, options = {} } = {}) {
  const child = fork(SERVER, entry ? [resolve(entry)] : [], {
    execArgv: ['--expose-gc'],
    env: {
      ...process.env,
      SOAK_LEAK_BYTES: String(leakBytes),
      SOAK_OPTIONS: JSON.stringify(options),
    },
    stdio: ['ignore', 'ignore', 'pipe', 'ipc'],
  })
  let stderr = ''
  child.stderr.setEncoding('utf8').on('data', (chunk) => {
    stderr = (stderr + chunk).slice(-4096)
  })
  const exited = new Promise((done) =>
    child.once('exit', (code, signal) => done(code ?? signal)),
  )
  const waiting = new Map()
  let nextId = 1
  return new Promise((ready, fail) => {
    const gone = (code) => {
      for (const { reject } of waiting.values())
        reject(new Error(`the soak server exited (${code}): ${stderr.trim()}`))
      fail(
        new Error(
          `the soak server exited (${code}) before it was ready: ${stderr.trim()}`,
        ),
      )
    }
    void exited.then(gone)
    child.on('message', (message) => {
      if (message.type === 'ready') {
        ready({
          port: message.port,
          entry: message.entry,
          /** Memory after two full collections; `gc: false` as it is, `settleMs` later. */
          sample({ gc = true, settleMs = 0 } = {}) {
            const id = nextId++
            return new Promise((resolve, reject) => {
              waiting.set(id, { resolve, reject })
              child.send({ type: 'sample', id, gc, settleMs })
            })
          },
          async stop() {
            if (child.exitCode === null && child.signalCode === null)
              child.kill('SIGKILL')
            await exited
          },
        })
      } else if (message.type === 'sample') {
        const { id, type: _type, ...sample } = message
        waiting.get(id)?.resolve(sample)
        waiting.delete(id)
      }
    })
  })
}
