import { ApiError } from './pets-api.js'

const sleep = (seconds: number) =>
  new Promise<void>((resolve) => setTimeout(resolve, seconds * 1000))

/**
 * Retries a call that got a 429 at once, again and again: what NOT to do. The sandbox's
 * report card grades it `retry_before_retry_after` (an error), and the key gets banned.
 */
export async function retryAtOnce<T>(call: () => Promise<T>, attempts = 5): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await call()
    } catch (error) {
      if (!(error instanceof ApiError) || error.status !== 429 || attempt >= attempts) {
        throw error
      }
    }
  }
}

/**
 * Retries a call that got a 429 as the API asks: waits at least Retry-After, and twice
 * as long after each further 429. `wait` is injectable so a test can move the sandbox
 * clock instead of sleeping.
 */
export async function retryPolitely<T>(
  call: () => Promise<T>,
  {
    attempts = 5,
    wait = sleep,
  }: { attempts?: number; wait?: (seconds: number) => unknown } = {},
): Promise<T> {
  let backoff = 1
  for (let attempt = 1; ; attempt++) {
    try {
      return await call()
    } catch (error) {
      if (!(error instanceof ApiError) || error.status !== 429 || attempt >= attempts) {
        throw error
      }
      await wait(Math.max(error.retryAfter ?? 0, backoff))
      backoff *= 2
    }
  }
}
