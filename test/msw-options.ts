import type { SharedOptions } from 'msw'
import { readMswVersion } from '../src/node/check-msw.js'

/** The installed msw's major version (2 or 3): CI runs the tests on both. */
export const mswMajor = Number(readMswVersion()?.split('.')[0])

if (mswMajor !== 2 && mswMajor !== 3) {
  throw new Error(
    `The tests run on msw 2 or 3; msw/package.json says ${readMswVersion()}.`,
  )
}

/**
 * The `server.listen()` / `worker.start()` option that makes a request no handler answers
 * fail, under the installed msw's name for it. msw 3 renamed `onUnhandledRequest` to
 * `onUnhandledFrame` and silently ignores the old name, so a literal
 * `{ onUnhandledRequest: 'error' }` lets unhandled requests through there. The cast is
 * needed because `SharedOptions` has only the installed major's name and tsc cannot see
 * which one the ternary picks; test/node/unhandled-request.test.ts checks the pick.
 *
 * @example
 * server.listen(failOnUnhandledRequest)
 */
export const failOnUnhandledRequest = (
  mswMajor === 3 ? { onUnhandledFrame: 'error' } : { onUnhandledRequest: 'error' }
) as SharedOptions
