import { connect } from 'node:net'
import { http, HttpResponse } from 'msw'
import { expect, test } from 'vitest'
import { defineFaultsSuite } from '../contract/faults-suite.js'
import { startApp } from './start-app.js'

defineFaultsSuite('standalone server (petstore-sandbox/express)', async () => {
  const { origin, close } = await startApp({ seed: 42 })
  return { origin, close }
})

const request = (path: string) =>
  `GET ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer sandbox-flaky-network-key\r\nConnection: keep-alive\r\n\r\n`

/**
 * Sends the requests one at a time on one keep-alive connection, each after the answer
 * to the one before; resolves with the bytes that came back for each, once the server
 * closes the connection.
 */
function onOneConnection(port: number, requests: string[]) {
  return new Promise<{ answers: string[]; ended: string }>((resolve, reject) => {
    const socket = connect(port, '127.0.0.1')
    const answers: string[] = []
    let received = ''
    const timer = setTimeout(() => {
      socket.destroy()
      reject(new Error(`The connection stayed open; got ${JSON.stringify(answers)}`))
    }, 5000)
    const next = () => {
      answers.push(received)
      received = ''
      const text = requests[answers.length]
      if (text !== undefined) socket.write(text)
    }
    socket.setEncoding('latin1')
    socket.on('data', (chunk: string) => {
      received += chunk
      const head = received.indexOf('\r\n\r\n')
      const length = /\r\ncontent-length: (\d+)/i.exec(received)?.[1]
      if (head !== -1 && length !== undefined && received.length >= head + 4 + +length)
        next()
    })
    const finish = (how: string) => {
      clearTimeout(timer)
      answers.push(received)
      resolve({ answers, ended: how })
    }
    socket.on('close', () => finish('close'))
    socket.on('error', (error: NodeJS.ErrnoException) => {
      if (error.code !== 'ECONNRESET') reject(error)
    })
    socket.write(requests[0]!)
  })
}

test('a dropped request closes its keep-alive connection without writing a byte', async () => {
  const app = await startApp({ seed: 42 })
  try {
    // Seed 42's default session under flaky-network: request 1 is answered, 2 dropped.
    const { answers, ended } = await onOneConnection(app.port, [
      request('/v1/pets?limit=1'),
      request('/v1/pets?limit=2'),
      request('/v1/pets?limit=3'),
    ])
    expect(ended).toBe('close')
    expect(answers).toHaveLength(2)
    expect(answers[0]).toMatch(/^HTTP\/1\.1 200 OK\r\n/)
    // Nothing at all for the second: no status line, no half-written body.
    expect(answers[1]).toBe('')
    // The third was never sent: the client opens a new connection to retry.
    const retry = await fetch(`${app.origin}/v1/pets?limit=2`, {
      headers: { authorization: 'Bearer sandbox-flaky-network-key' },
    })
    expect(retry.status).toBe(200)
    const { requests } = (await (
      await fetch(`${app.origin}/__sandbox/requests`)
    ).json()) as {
      requests: Array<{ path: string; status: number; dropped?: true }>
    }
    expect(requests.map((entry) => [entry.path, entry.status, entry.dropped])).toEqual([
      ['/v1/pets?limit=2', 200, undefined],
      ['/v1/pets?limit=2', 0, true],
      ['/v1/pets?limit=1', 200, undefined],
    ])
  } finally {
    await app.close()
  }
})

test("a user's handler that answers HttpResponse.error() closes the socket too, as in msw", async () => {
  // Before, Express tried to write status 0 and answered 500: not what msw runtimes do.
  const app = await startApp({
    seed: 42,
    handlers: [http.get('*/v1/pets/13', () => HttpResponse.error())],
  })
  try {
    const failed = await fetch(`${app.origin}/v1/pets/13`).then(
      (response) => response.status,
      (error: Error) => error.name,
    )
    expect(failed).toBe('TypeError')
    const { requests } = (await (
      await fetch(`${app.origin}/__sandbox/requests`)
    ).json()) as {
      requests: Array<{ path: string; status: number; override?: true; dropped?: true }>
    }
    // The user's handler answered (an override), the scenario dropped nothing.
    expect(requests[0]).toMatchObject({ path: '/v1/pets/13', status: 0, override: true })
    expect(requests[0]).not.toHaveProperty('dropped')
  } finally {
    await app.close()
  }
})
