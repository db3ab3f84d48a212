import type { RequestHandler } from 'express'

/**
 * Middlewares run one after the other in one Express layer, as Express would run them
 * (a thrown error or a rejected promise goes to the error handler): a router layer for
 * each costs more than most of these checks, on every request.
 */
export function inOrder(...steps: RequestHandler[]): RequestHandler {
  return (req, res, next) => {
    let index = 0
    const step = (arg?: unknown) => {
      if (arg !== undefined) return next(arg)
      const handler = steps[index++]
      if (handler === undefined) return next()
      try {
        const result: unknown = handler(req, res, step)
        if (result instanceof Promise) {
          result.catch((error: unknown) => next(error ?? new Error('Rejected promise')))
        }
      } catch (error) {
        next(error)
      }
    }
    step()
  }
}
