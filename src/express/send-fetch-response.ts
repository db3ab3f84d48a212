import type { ServerResponse } from 'node:http'
import { responseText } from '../core/responses.js'

/**
 * Writes a Fetch `Response` to a Node response in one `writeHead` and one `end`, with a
 * Content-Length so small JSON bodies are not chunked. Headers set earlier (CORS) are
 * kept; the response's own win.
 */
export async function sendFetchResponse(response: Response, outgoing: ServerResponse) {
  // A flat [name, value, ...] list: no object per response, and Set-Cookie stays a list.
  const headers: string[] = []
  for (const [name, value] of response.headers) headers.push(name, value)
  // The sandbox's own responses come with their text: written as a string, it leaves in
  // the same packet as the head, and the body stream is never read back.
  const body =
    responseText(response) ??
    (response.body === null ? undefined : await readAll(response.body))
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
