import type { IncomingMessage, Server, ServerResponse } from 'node:http'
import type { Duplex } from 'node:stream'

/** What the lines of a server read of its transport limits. */
export interface LineLimits {
  sendTimeoutMs: number
  maxPipelinedRequests: number
}

/** The connections of one server, each a line of requests answered one at a time. */
export interface ResponseLines {
  /**
   * Hands a request to `answer` once the previous response of its connection has left
   * the server; more than `maxPipelinedRequests` waiting close the connection.
   */
  admit(req: IncomingMessage, res: ServerResponse, answer: Answer): void
  /** The last request of a connection whose headers were read, if any. */
  reading(socket: Duplex): IncomingMessage | undefined
}

type Answer = (req: IncomingMessage, res: ServerResponse) => void

/**
 * Answers the requests of each connection one at a time: the next one is handed to the
 * app only once the previous response is done, so a client that sends requests without
 * reading the answers holds at most one response in memory.
 *
 * The send timeout: a response written whole that has not left the server's buffers,
 * or one whose writes found the socket's buffer full, is stalled; a connection stalled
 * for `sendTimeoutMs` without the client taking anything ('drain') is closed. One sweep
 * per server checks every connection each second (or each half limit, if shorter), so
 * an answer costs no timer of its own.
 */
export function createResponseLines(server: Server, limits: LineLimits): ResponseLines {
  const lines = new Map<Duplex, Line>()
  let sweep: NodeJS.Timeout | undefined
  server.on('listening', () => {
    clearInterval(sweep)
    sweep = setInterval(
      () => {
        const now = performance.now()
        for (const line of lines.values()) line.check(now, limits.sendTimeoutMs)
      },
      Math.min(1000, limits.sendTimeoutMs / 2),
    ).unref()
  })
  server.on('close', () => clearInterval(sweep))

  return {
    admit(req, res, answer) {
      const socket = req.socket
      if (socket.destroyed) return
      let line = lines.get(socket)
      if (line === undefined) {
        const created = new Line(socket)
        lines.set(socket, created)
        socket.once('close', () => {
          created.waiting.length = 0
          lines.delete(socket)
        })
        socket.on('drain', created.progress)
        line = created
      }
      line.reading = req
      if (!line.busy) return line.start(req, res, answer)
      if (line.waiting.length >= limits.maxPipelinedRequests) return void socket.destroy()
      const waiting = line
      line.waiting.push(() => waiting.start(req, res, answer))
    },
    reading: (socket) => lines.get(socket)?.reading,
  }
}

/** The requests of one connection: the one being answered, and those sent ahead. */
class Line {
  readonly waiting: Array<() => void> = []
  reading: IncomingMessage | undefined
  /** The response being answered, if any. */
  #current: ServerResponse | undefined
  /** When a sweep first found the current response stalled. */
  #stalledAt: number | undefined

  constructor(readonly socket: Duplex) {}

  get busy(): boolean {
    return this.#current !== undefined
  }

  start(req: IncomingMessage, res: ServerResponse, answer: Answer) {
    this.#current = res
    this.#stalledAt = undefined
    // A response emits 'close' once, when it is done or its connection went.
    res.once('close', this.#release)
    answer(req, res)
  }

  /** The client took what was buffered: the send timeout starts again. */
  readonly progress = () => {
    this.#stalledAt = undefined
  }

  check(now: number, timeoutMs: number) {
    const res = this.#current
    const stalled =
      res !== undefined &&
      (res.writableEnded ? !res.writableFinished : this.socket.writableNeedDrain)
    if (!stalled) {
      this.#stalledAt = undefined
      return
    }
    this.#stalledAt ??= now
    if (now - this.#stalledAt >= timeoutMs) this.socket.destroy()
  }

  readonly #release = () => {
    this.#current = undefined
    this.#stalledAt = undefined
    const next = this.waiting.shift()
    if (next && !this.socket.destroyed) next()
  }
}
