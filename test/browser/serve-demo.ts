import { existsSync, readFileSync, statSync } from 'node:fs'
import {
  createServer,
  type IncomingMessage,
  type Server,
  type ServerResponse,
} from 'node:http'
import type { AddressInfo } from 'node:net'
import { extname, join, normalize } from 'node:path'
import { fileURLToPath } from 'node:url'
import { getResponse } from 'msw'
import type { Sandbox } from 'petstore-sandbox'

/** The demo page as built (examples/browser into dist/demo). */
export const demoDir = join(fileURLToPath(new URL('../..', import.meta.url)), 'dist/demo')

const CONTENT_TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.map': 'application/json',
}

export type Served = { server: Server; origin: string; paths: string[] }

/**
 * A static server for dist/demo that remembers every path asked of it. Given `api`, it
 * also answers /v1 and /__sandbox with those handlers, standing in for a sandbox server.
 */
export function serveDemo(api?: Sandbox): Promise<Served> {
  const paths: string[] = []
  const server = createServer(async (request, response) => {
    const pathname = new URL(request.url ?? '/', 'http://localhost').pathname
    paths.push(pathname)
    if (api && (pathname.startsWith('/v1/') || pathname.startsWith('/__sandbox'))) {
      await answerWith(api, request, response)
      return
    }
    const file = normalize(join(demoDir, pathname === '/' ? 'index.html' : pathname))
    if (!file.startsWith(demoDir) || !existsSync(file) || !statSync(file).isFile()) {
      response.writeHead(404, { 'content-type': 'text/plain' }).end('not found')
      return
    }
    response
      .writeHead(200, {
        'content-type': CONTENT_TYPES[extname(file)] ?? 'application/octet-stream',
        'cache-control': 'no-store',
      })
      .end(readFileSync(file))
  })
  return new Promise((done) => {
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as AddressInfo
      done({ server, origin: `http://127.0.0.1:${port}`, paths })
    })
  })
}

async function answerWith(
  sandbox: Sandbox,
  request: IncomingMessage,
  response: ServerResponse,
) {
  const chunks: Buffer[] = []
  for await (const chunk of request) chunks.push(chunk as Buffer)
  const body = chunks.length > 0 ? Buffer.concat(chunks) : undefined
  const headers = new Headers()
  for (const [name, value] of Object.entries(request.headers)) {
    if (typeof value === 'string') headers.set(name, value)
  }
  const answer = await getResponse(
    sandbox.handlers,
    new Request(`http://${request.headers.host}${request.url}`, {
      method: request.method,
      headers,
      ...(body ? { body } : {}),
    }),
  )
  if (!answer) {
    response.writeHead(404).end()
    return
  }
  response.writeHead(answer.status, Object.fromEntries(answer.headers))
  response.end(Buffer.from(await answer.arrayBuffer()))
}
