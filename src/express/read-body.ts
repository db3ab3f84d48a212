import type { IncomingMessage } from 'node:http'

/** Why a body was not read: over the limit, and whether the connection must close. */
export interface TooLarge {
  tooLarge: true
  /** The client is still sending far more than the limit: answer and hang up. */
  close: boolean
}

/**
 * A body that declares at least this many bytes is copied into one Buffer of that size
 * as its chunks come: a copy of 16 MiB at the end (Buffer.concat) took a loaded server
 * 60 ms, during which it answered nobody (docs/performance.md#neighbours).
 */
export const COPY_AS_READ = 1024 * 1024

/** Over the limit, a body is still read and discarded up to this many bytes. */
const DRAIN_FACTOR = 16
const MIN_DRAIN = 1024 * 1024

/** How far past `limit` a body is still read (and discarded) rather than cut off. */
export function drainLimitOf(limit: number): number {
  return Math.max(limit * DRAIN_FACTOR, MIN_DRAIN)
}

/**
 * Reads and discards a body the server refuses without reading it (nothing of it is
 * kept), before the answer goes out, as the 413 of {@link readBody} does: a connection
 * closed under an upload gives the client EPIPE or a reset instead of the answer, and
 * an answer written first stalls Node's own client, which stops waiting for `drain`
 * once a whole answer came. Resolves true once the body is in; false when it is (or is
 * declared) past `drainLimit` bytes or the client went: answer and hang up then.
 */
export function discardBody(
  request: IncomingMessage,
  drainLimit: number,
): Promise<boolean> {
  const declared = Number(request.headers['content-length'])
  if (declared > drainLimit) return Promise.resolve(false)
  return new Promise((resolve) => {
    let size = 0
    const settle = (drained: boolean) => {
      request.off('data', onData)
      request.off('end', onEnd)
      request.off('error', onGone)
      request.off('close', onGone)
      if (!drained) request.pause()
      resolve(drained)
    }
    const onData = (chunk: Buffer) => {
      size += chunk.length
      if (size > drainLimit) settle(false)
    }
    const onEnd = () => settle(true)
    const onGone = () => settle(false)
    request.on('data', onData)
    request.on('end', onEnd)
    request.on('error', onGone)
    request.on('close', onGone)
  })
}

/**
 * Reads a request body into one Buffer, at most `limit` bytes. A larger body is drained
 * (up to a bound) before the 413 goes out, because a client that is still uploading
 * when the server answers and closes sees a reset connection instead of the Error body.
 */
export function readBody(
  request: IncomingMessage,
  limit: number,
): Promise<Buffer | TooLarge> {
  const drainLimit = drainLimitOf(limit)
  const declared = Number(request.headers['content-length'])
  if (declared > drainLimit) return Promise.resolve({ tooLarge: true, close: true })
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = []
    let size = 0
    // The whole body, filled as chunks come, when it declared a large length within the
    // limit (Node's parser holds a body to its Content-Length).
    let whole =
      declared >= COPY_AS_READ && declared <= limit
        ? Buffer.allocUnsafe(declared)
        : undefined
    const cleanup = () => {
      request.off('data', onData)
      request.off('end', onEnd)
      request.off('error', onError)
      request.off('close', onClose)
    }
    const onData = (chunk: Buffer) => {
      if (whole && size + chunk.length <= whole.length) {
        chunk.copy(whole, size)
        size += chunk.length
        return
      }
      if (whole) {
        // More than it declared: kept as chunks from here.
        chunks.push(whole.subarray(0, size))
        whole = undefined
      }
      size += chunk.length
      if (size <= limit) {
        chunks.push(chunk)
        return
      }
      chunks.length = 0
      if (size > drainLimit) {
        cleanup()
        request.pause()
        resolve({ tooLarge: true, close: true })
      }
    }
    const onEnd = () => {
      cleanup()
      if (size > limit) resolve({ tooLarge: true, close: false })
      else if (whole) resolve(size === whole.length ? whole : whole.subarray(0, size))
      else
        resolve(chunks.length === 1 ? (chunks[0] as Buffer) : Buffer.concat(chunks, size))
    }
    const onError = (error: Error) => {
      cleanup()
      reject(error)
    }
    const onClose = () => {
      cleanup()
      reject(new Error('The client closed the connection before the body was complete.'))
    }
    request.on('data', onData)
    request.on('end', onEnd)
    request.on('error', onError)
    request.on('close', onClose)
  })
}

/** Whether a request may carry a body the API reads (GET and HEAD bodies are ignored). */
export function hasBody(req: IncomingMessage) {
  if (req.method === 'GET' || req.method === 'HEAD') return false
  const length = req.headers['content-length']
  return (
    req.headers['transfer-encoding'] !== undefined ||
    (length !== undefined && length !== '0')
  )
}

/** The body a body parser mounted before the adapter kept, as bytes. */
export function parsedBody(value: unknown): Buffer | undefined {
  if (value === undefined || value === null) return undefined
  if (Buffer.isBuffer(value)) return value
  if (typeof value === 'string') return Buffer.from(value)
  return Buffer.from(JSON.stringify(value))
}
