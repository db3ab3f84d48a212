import { connect, type Socket } from 'node:net'

/** What came back on a raw connection: the parsed response, if any, and how it ended. */
export interface RawReply {
  status: number | undefined
  headers: Record<string, string>
  body: string
  /** The server closed the connection (rather than keeping it alive). */
  closed: boolean
}

/**
 * Sends bytes Node's fetch refuses to send (broken framing, invalid UTF-8, oversized
 * lines) on a fresh connection to 127.0.0.1:port and resolves with the first response,
 * once it is complete (Content-Length) or the server closes. Rejects after `timeoutMs`
 * without a complete answer; the socket is always destroyed.
 */
export function rawRequest(
  port: number,
  chunks: Array<string | Buffer>,
  timeoutMs = 5000,
): Promise<RawReply> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1')
    let received = Buffer.alloc(0)
    let settled = false
    const finish = (error?: Error) => {
      if (settled) return
      settled = true
      clearTimeout(timer)
      socket.destroy()
      if (error) reject(error)
      else resolve({ ...parse(received), closed: true })
    }
    const timer = setTimeout(
      () =>
        finish(
          new Error(
            `No complete answer within ${timeoutMs} ms; got: ${received.toString('latin1').slice(0, 200)}`,
          ),
        ),
      timeoutMs,
    )
    socket.on('data', (chunk: Buffer) => {
      received = Buffer.concat([received, chunk])
      const reply = parse(received)
      const length = Number(reply.headers['content-length'])
      if (reply.status !== undefined && Number.isInteger(length)) {
        if (Buffer.byteLength(reply.body) >= length && !settled) {
          settled = true
          clearTimeout(timer)
          // A server that closes after answering has usually ended its side already.
          const closed = socket.readableEnded || reply.headers.connection === 'close'
          socket.destroy()
          resolve({ ...reply, closed })
        }
      }
    })
    socket.on('end', () => finish())
    socket.on('close', () => finish())
    socket.on('error', (error: NodeJS.ErrnoException) => {
      // A reset after a complete answer (the server hung up on a half-sent body).
      if (error.code === 'ECONNRESET' || error.code === 'EPIPE') finish()
      else finish(error)
    })
    for (const chunk of chunks) socket.write(chunk)
  })
}

function parse(bytes: Buffer): Omit<RawReply, 'closed'> {
  const end = bytes.indexOf('\r\n\r\n')
  if (end === -1) return { status: undefined, headers: {}, body: '' }
  const [statusLine = '', ...lines] = bytes
    .subarray(0, end)
    .toString('latin1')
    .split('\r\n')
  const headers: Record<string, string> = {}
  for (const line of lines) {
    const colon = line.indexOf(':')
    headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim()
  }
  return {
    status: Number(/^HTTP\/1\.[01] (\d{3})/.exec(statusLine)?.[1]) || undefined,
    headers,
    body: bytes.subarray(end + 4).toString('utf8'),
  }
}

/** Opens a connection and sends `chunks` without ever finishing the request. */
export function hangingRequest(port: number, chunks: Array<string | Buffer>) {
  return new Promise<{ socket: Socket; reply: Promise<RawReply> }>((resolve, reject) => {
    const socket = connect(port, '127.0.0.1', () => {
      for (const chunk of chunks) socket.write(chunk)
      resolve({ socket, reply })
    })
    let received = Buffer.alloc(0)
    socket.on('data', (chunk: Buffer) => (received = Buffer.concat([received, chunk])))
    const reply = new Promise<RawReply>((settle) => {
      socket.on('close', () => settle({ ...parse(received), closed: true }))
    })
    socket.on('error', (error: NodeJS.ErrnoException) => {
      if (!socket.connecting) return
      reject(error)
    })
  })
}
