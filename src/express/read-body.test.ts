import { EventEmitter } from 'node:events'
import type { IncomingMessage } from 'node:http'
import { afterEach, expect, test, vi } from 'vitest'
import { COPY_AS_READ, readBody } from './read-body.js'

afterEach(() => vi.restoreAllMocks())

/** A request declaring `length` bytes, whose body comes as `chunks`. */
function request(length: number | undefined, chunks: Buffer[]) {
  const emitter = new EventEmitter() as EventEmitter & { headers: object; pause(): void }
  emitter.headers = length === undefined ? {} : { 'content-length': String(length) }
  emitter.pause = () => {}
  const send = () => {
    for (const chunk of chunks) emitter.emit('data', chunk)
    emitter.emit('end')
  }
  return { request: emitter as unknown as IncomingMessage, send }
}

const chunksOf = (size: number, count: number) =>
  Array.from({ length: count }, (_, index) => Buffer.alloc(size, index))

test('a large body that declares its length is copied as its chunks come, not at the end', async () => {
  const concat = vi.spyOn(Buffer, 'concat')
  const chunks = chunksOf(64 * 1024, 32)
  const { request: incoming, send } = request(32 * 64 * 1024, chunks)
  const read = readBody(incoming, 16 * COPY_AS_READ)
  send()
  const expected = Buffer.concat(chunks)
  expect(concat).toHaveBeenCalledTimes(1) // the test's own
  expect(expected.equals((await read) as Buffer)).toBe(true)
})

test('a small body, one without a length, or one longer than it said are joined at the end', async () => {
  for (const [declared, chunks] of [
    [2 * 1024, chunksOf(1024, 2)],
    [undefined, chunksOf(64 * 1024, 20)],
    [COPY_AS_READ, chunksOf(64 * 1024, 20)],
  ] as const) {
    const { request: incoming, send } = request(declared, [...chunks])
    const read = readBody(incoming, 16 * COPY_AS_READ)
    send()
    expect(Buffer.concat([...chunks]).equals((await read) as Buffer)).toBe(true)
  }
})

test('over the limit, it is too large, whatever it declared', async () => {
  const { request: incoming, send } = request(COPY_AS_READ, chunksOf(64 * 1024, 20))
  const read = readBody(incoming, COPY_AS_READ)
  send()
  expect(await read).toEqual({ tooLarge: true, close: false })
})
