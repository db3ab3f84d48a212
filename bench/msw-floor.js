// A reference, not a competitor: Express 5 answering through msw's getResponse with one
// trivial handler that returns the same 20 pets as a ready-made string. No auth, rate
// limits, validation or journal: the cost of msw and the Fetch Request/Response objects
// alone, behind an adapter and a handler that spare msw what the sandbox's do (no request
// clone, no cookie lookup, no finalize abort, no response body stream: the text is
// written with the head),
// so the ceiling of any adapter that keeps msw in the path.
// Run as a child process by bench/run.js: node bench/msw-floor.js <port> <pets-file>
import { readFileSync } from 'node:fs'
import express from 'express'
import { getResponse, HttpHandler, matchRequestUrl, RequestHandler } from 'msw'

const port = Number(process.argv[2])
const pets = readFileSync(process.argv[3], 'utf8')
const texts = new WeakMap()

/**
 * As the sandbox's handlers: msw's HttpHandler without the cookie lookup, and a `run`
 * without the AbortController msw makes and aborts for `finalize` on every request.
 */
class LeanHttpHandler extends HttpHandler {
  async parse({ request, resolutionContext }) {
    const url = new URL(request.url)
    return {
      match: matchRequestUrl(url, this.info.path, resolutionContext?.baseUrl),
      cookies: {},
    }
  }

  async run({ request, requestId, resolutionContext }) {
    let clone = RequestHandler.cache.get(request)
    if (clone === undefined) {
      clone = request.clone()
      RequestHandler.cache.set(request, clone)
    }
    const parsedResult = await this.parse({ request, resolutionContext })
    if (!(await this.predicate({ request, parsedResult, resolutionContext }))) return null
    this.isUsed = true
    const response = await this.resolver({ request, requestId, params: {}, cookies: {} })
    return { handler: this, request: clone, requestId, response, parsedResult }
  }
}

const handlers = [
  new LeanHttpHandler('GET', /^[a-z]+:\/\/[^/]+\/v1\/pets$/, () => {
    const response = new Response(null, {
      headers: { 'content-type': 'application/json' },
    })
    texts.set(response, pets)
    return response
  }),
]

const app = express()
app.use(async (req, res, next) => {
  try {
    const headers = new Headers()
    const raw = req.rawHeaders
    for (let index = 0; index < raw.length; index += 2)
      headers.append(raw[index], raw[index + 1])
    const request = new Request(`http://${req.headers.host}${req.url}`, {
      method: req.method,
      headers,
    })
    RequestHandler.cache.set(request, request)
    const response = await getResponse(handlers, request)
    if (!response) return next()
    const body = texts.get(response)
    const list = []
    for (const [name, value] of response.headers) list.push(name, value)
    list.push('content-length', String(Buffer.byteLength(body)))
    res.writeHead(response.status, list)
    res.end(body)
  } catch (error) {
    next(error)
  }
})
app.listen(port, '127.0.0.1')
