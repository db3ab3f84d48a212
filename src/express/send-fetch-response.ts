import type { ServerResponse } from 'node:http'
import { errorReply } from '../core/http/api-errors.js'
import { REQUEST_ID_HEADER, type Reply } from '../core/http/reply.js'
import type { TransferBudget } from './transfer-budget.js'

/**
 * Writes a reply of the core in one `writeHead` and one `end`, with a Content-Length so
 * small JSON bodies are not chunked and leave in the same packet as the head. Headers
 * set earlier (CORS) are kept; the reply's own win.
 */
export function sendReply(
  reply: Reply,
  outgoing: ServerResponse,
  /** Where a large answer (an export) waits for room; see transfer-budget.ts. */
  budget?: TransferBudget,
  /** Room the answer took before it was built (its estimated size): held until sent. */
  reserved = 0,
) {
  const headers: string[] = []
  for (const name in reply.headers) headers.push(name, reply.headers[name] as string)
  // A 204 has no body, and so no Content-Length (RFC 9110).
  const { pieces } = reply
  const length =
    reply.status === 204
      ? 0
      : pieces
        ? byteLengthOf(pieces)
        : Buffer.byteLength(reply.text)
  if (budget && reserved > 0) outgoing.once('close', () => budget.give(reserved))
  else if (budget && length >= budget.large) {
    if (!budget.take(length)) {
      // The Error body, under the answer's request id (its other headers were its own).
      const id = reply.headers[REQUEST_ID_HEADER]
      sendReply(
        errorReply(
          budget.busy('answer'),
          id === undefined ? {} : { [REQUEST_ID_HEADER]: id },
        ),
        outgoing,
      )
      return
    }
    // Held until the client took it all, or went.
    outgoing.once('close', () => budget.give(length))
  }
  if (reply.status !== 204) headers.push('content-length', String(length))
  outgoing.writeHead(reply.status, headers)
  if (pieces && reply.status !== 204) void writePieces(pieces, outgoing)
  else outgoing.end(reply.status === 204 ? undefined : reply.text)
}

function byteLengthOf(pieces: readonly string[]): number {
  let length = 0
  for (const piece of pieces) length += Buffer.byteLength(piece)
  return length
}

/**
 * Writes a large answer built in slices (an export, a HAR) piece by piece, each once the
 * client has taken what the last one filled (`drain`): one write of megabytes encoded
 * and copied the whole text at once, and 20 exports at once kept a server from its
 * other clients for a second (docs/performance.md#neighbours). Stops when the client
 * goes.
 */
async function writePieces(pieces: readonly string[], outgoing: ServerResponse) {
  for (const piece of pieces) {
    if (outgoing.destroyed) return
    if (!outgoing.write(piece)) await drained(outgoing)
  }
  if (!outgoing.destroyed) outgoing.end()
}

/** Resolves once `outgoing` takes more (`drain`) or is closed. */
function drained(outgoing: ServerResponse): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      outgoing.off('drain', done)
      outgoing.off('close', done)
      resolve()
    }
    outgoing.on('drain', done)
    outgoing.on('close', done)
  })
}

/**
 * Writes a Fetch `Response` (a user's handler's) to a Node response in one `writeHead`
 * and one `end`, its body read whole.
 */
export async function sendFetchResponse(response: Response, outgoing: ServerResponse) {
  // A flat [name, value, ...] list: no object per response, and Set-Cookie stays a list.
  // The length is counted here, from the body written (msw 3's HttpResponse sets one too:
  // two would make clients refuse the response).
  const headers: string[] = []
  for (const [name, value] of response.headers) {
    if (name !== 'content-length') headers.push(name, value)
  }
  const body = response.body === null ? undefined : await readAll(response.body)
  if (body !== undefined) headers.push('content-length', String(Buffer.byteLength(body)))
  outgoing.writeHead(response.status, headers)
  outgoing.end(body)
}

/** Reads a body stream whole; a reader is cheaper than `arrayBuffer()` for one chunk. */
async function readAll(stream: ReadableStream<Uint8Array>): Promise<Buffer> {
  const reader = stream.getReader()
  const chunks: Uint8Array[] = []
  let size = 0
  for (;;) {
    const { done, value } = await reader.read()
    if (done) break
    chunks.push(value)
    size += value.byteLength
  }
  const [first] = chunks
  if (chunks.length === 1 && first)
    return Buffer.from(first.buffer, first.byteOffset, first.byteLength)
  return Buffer.concat(chunks, size)
}
