import {
  createServer,
  type IncomingMessage,
  type Server,
  type ServerResponse,
} from 'node:http'
import type { AddressInfo } from 'node:net'
import {
  createSandboxApp,
  listenSandboxApp,
  type SandboxAppOptions,
} from 'petstore-sandbox/express'

/** Starts the standalone app on 127.0.0.1 and a free port; `close` ends every connection. */
export async function startApp(options: SandboxAppOptions = {}) {
  const app = createSandboxApp(options)
  const server = await listenSandboxApp(app, { port: 0, host: '127.0.0.1' })
  const { port } = server.address() as AddressInfo
  return {
    app,
    sandbox: app.sandbox,
    server,
    origin: `http://127.0.0.1:${port}`,
    port,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.close((error) => (error ? reject(error) : resolve()))
        server.closeAllConnections()
      }),
  }
}

/**
 * Listens with a user's own Express app (`express()` and the middleware) on 127.0.0.1 and
 * a free port; `close` ends every connection.
 */
export async function listenOnLoopback(
  app: (req: IncomingMessage, res: ServerResponse) => void,
) {
  const server = await new Promise<Server>((resolve) => {
    const listening = createServer(app).listen(0, '127.0.0.1', () => resolve(listening))
  })
  return {
    server,
    origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve())
        server.closeAllConnections()
      }),
  }
}
