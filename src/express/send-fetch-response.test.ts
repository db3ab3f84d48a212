import { EventEmitter } from 'node:events'
import type { ServerResponse } from 'node:http'
import { expect, test } from 'vitest'
import { jsonReply, JsonText } from '../core/http/reply.js'
import { sendReply } from './send-fetch-response.js'

/** A response that takes `room` writes, then wants a `drain` before the next. */
function fakeResponse(room: number) {
  const outgoing = new EventEmitter() as EventEmitter & {
    written: string[]
    ended: boolean
    destroyed: boolean
    head?: unknown[]
  }
  outgoing.written = []
  outgoing.ended = false
  outgoing.destroyed = false
  Object.assign(outgoing, {
    writeHead: (...head: unknown[]) => (outgoing.head = head),
    write: (piece: string) => {
      outgoing.written.push(piece)
      return outgoing.written.length % room !== 0
    },
    end: (text?: string) => {
      if (text !== undefined) outgoing.written.push(text)
      outgoing.ended = true
    },
  })
  return outgoing
}

test('an answer built in pieces (an export) is written piece by piece, each once the client took the last', async () => {
  const pieces = ['{"a":[', '1', ',2', ',3', ']}']
  const outgoing = fakeResponse(2)
  sendReply(jsonReply(200, new JsonText(pieces)), outgoing as unknown as ServerResponse)
  // Its length is the pieces' bytes, and the first two went before the client took any.
  expect(outgoing.head?.[1]).toContain(String(pieces.join('').length))
  expect(outgoing.written).toEqual(['{"a":[', '1'])
  await Promise.resolve()
  expect(outgoing.written).toHaveLength(2)
  outgoing.emit('drain')
  await new Promise((resolve) => setImmediate(resolve))
  expect(outgoing.written).toEqual(['{"a":[', '1', ',2', ',3'])
  expect(outgoing.ended).toBe(false)
  outgoing.emit('drain')
  await new Promise((resolve) => setImmediate(resolve))
  expect(outgoing.written.join('')).toBe('{"a":[1,2,3]}')
  expect(outgoing.ended).toBe(true)
})

test('a client that goes stops the writing', async () => {
  const outgoing = fakeResponse(1)
  sendReply(
    jsonReply(200, new JsonText(['[', '1', ']'])),
    outgoing as unknown as ServerResponse,
  )
  expect(outgoing.written).toEqual(['['])
  outgoing.destroyed = true
  outgoing.emit('close')
  await new Promise((resolve) => setImmediate(resolve))
  expect(outgoing.written).toEqual(['['])
  expect(outgoing.ended).toBe(false)
})
