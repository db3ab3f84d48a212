// The server side of the soak (bench/soak.js forks it): the standalone sandbox app on
// 127.0.0.1 and a free port, answering memory samples over IPC. Run with --expose-gc, so
// every sample is taken after a full garbage collection: what is left is what the
// server holds on to, not garbage that happens not to be collected yet.
//   node --expose-gc bench/soak-server.js [path of the express entry]
// The entry defaults to the built dist/express/index.js; the vitest soak passes a bundle
// of src/express instead.
import { resolve } from 'node:path'
import { fileURLToPath, pathToFileURL } from 'node:url'

if (typeof globalThis.gc !== 'function' || typeof process.send !== 'function') {
  process.stderr.write('soak-server: run me with --expose-gc through bench/soak.js\n')
  process.exit(2)
}

const entry = process.argv[2]
  ? resolve(process.argv[2])
  : fileURLToPath(new URL('../dist/express/index.js', import.meta.url))
const { createSandboxApp, listenSandboxApp } = await import(pathToFileURL(entry).href)

// SOAK_OPTIONS: more options as JSON (the give-back phase's short sessionTtlSeconds).
const app = createSandboxApp({
  seed: 42,
  count: 50,
  ...JSON.parse(process.env.SOAK_OPTIONS || '{}'),
})
await app.sandbox.ready
const server = await listenSandboxApp(app, { port: 0, host: '127.0.0.1' })

// A leak on purpose (SOAK_LEAK_BYTES per /v1 request), to check the soak catches one.
const leakBytes = Number(process.env.SOAK_LEAK_BYTES ?? 0)
const leaked = []
if (leakBytes > 0)
  app.sandbox.onRequest((entry) => leaked.push(`${entry.id} `.padEnd(leakBytes, '.')))

const connections = () =>
  new Promise((done) => server.getConnections((error, count) => done(error ? -1 : count)))

process.on('message', async (message) => {
  if (message?.type !== 'sample') return
  // Twice: the first collection can leave objects whose finalizers free more. `gc:
  // false` reads the memory as the server holds it now, garbage and all.
  if (message.gc !== false) {
    globalThis.gc()
    globalThis.gc()
  }
  // V8 unmaps the pages a collection emptied on a thread of its own, shortly after:
  // RSS read at once still counts them.
  if (message.settleMs > 0)
    await new Promise((done) => setTimeout(done, message.settleMs))
  const memory = process.memoryUsage()
  process.send({
    type: 'sample',
    id: message.id,
    rss: memory.rss,
    heapUsed: memory.heapUsed,
    heapTotal: memory.heapTotal,
    external: memory.external,
    arrayBuffers: memory.arrayBuffers,
    pets: app.sandbox.state().counts.pets,
    journal: app.sandbox.journal.recent().length,
    sessions: app.sandbox.sessions().length,
    connections: await connections(),
  })
})
// The driver went away (finished, failed or killed): so does the server.
process.on('disconnect', () => process.exit(0))

process.send({ type: 'ready', port: server.address().port, entry })
