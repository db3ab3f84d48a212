import { getResponse, type RequestHandler } from 'msw'
import { expect, test } from 'vitest'
import { createSandbox, type Sandbox } from 'petstore-sandbox/node'
import { attachSandbox } from '../../src/core/attach-sandbox.js'

// Two sandboxes of one process share nothing: what one's handlers answered is not the
// other's, so each journals the other's answers as its own msw setup sees them.

const auth = { authorization: 'Bearer sandbox-free-key' }

type Mocked = { request: Request; requestId: string; response: Response }

/**
 * An msw setup as attachSandbox sees one (setupServer's or setupWorker's), whose
 * `response:mocked` event the test sends itself.
 */
function attached(sandbox: Sandbox) {
  const listeners: Array<(args: Mocked) => void> = []
  attachSandbox(
    {
      resetHandlers() {},
      events: { on: (_event: 'response:mocked', listener) => listeners.push(listener) },
    },
    sandbox,
  )
  return (args: Mocked) => listeners.forEach((listener) => listener(args))
}

/** Runs a request through these handlers under msw's request id `requestId`. */
async function answer(handlers: RequestHandler[], request: Request, requestId: string) {
  for (const handler of handlers) {
    const result = await handler.run({ request, requestId })
    if (result?.response) return result.response
  }
  throw new Error(`no handler answered ${request.url}`)
}

const overrides = (sandbox: Sandbox) =>
  sandbox.journal.recent().map(({ path, override }) => ({ path, override: !!override }))

test("an answer of one sandbox's handlers is an override to another sandbox's msw setup", async () => {
  const first = createSandbox({ seed: 42, count: 3 })
  const second = createSandbox({ seed: 42, count: 3 })
  // The second sandbox's setup serves the first's handlers, as a user's own handler.
  const mockedInSecond = attached(second)
  const request = new Request('https://x.test/v1/pets', { headers: auth })
  const response = await getResponse(first.handlers, request)
  mockedInSecond({ request, requestId: 'setup-server-1', response: response! })
  expect(overrides(first)).toEqual([{ path: '/v1/pets', override: false }])
  expect(overrides(second)).toEqual([{ path: '/v1/pets', override: true }])
})

test("one sandbox's msw events never take back the request ids another's handlers answered", async () => {
  const first = createSandbox({ seed: 42, count: 3 })
  const second = createSandbox({ seed: 42, count: 3 })
  const mockedInFirst = attached(first)
  const mockedInSecond = attached(second)
  const url = 'https://x.test/v1/pets/1'
  // The first answers under msw's id; as setupWorker does, each setup's event carries a
  // request rebuilt from the worker's message, which only the id ties to the answer.
  const response = await answer(
    first.handlers,
    new Request(url, { headers: auth }),
    'w-1',
  )
  const rebuilt = () => new Request(url, { headers: auth })
  mockedInSecond({ request: rebuilt(), requestId: 'w-1', response })
  mockedInFirst({ request: rebuilt(), requestId: 'w-1', response })
  // The first journalled its own answer once, not a second time as an override.
  expect(overrides(first)).toEqual([{ path: '/v1/pets/1', override: false }])
  expect(overrides(second)).toEqual([{ path: '/v1/pets/1', override: true }])
})
