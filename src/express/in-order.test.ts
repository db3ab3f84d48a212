import type { NextFunction, Request, RequestHandler, Response } from 'express'
import { expect, test } from 'vitest'
import { inOrder } from './in-order.js'

/** Runs the middleware once and resolves with what reached the outer `next`. */
function run(middleware: RequestHandler) {
  return new Promise<{ called: boolean; arg: unknown }>((resolve) => {
    const next = ((arg?: unknown) => resolve({ called: true, arg })) as NextFunction
    void middleware({} as Request, {} as Response, next)
    // A middleware that answers never calls next.
    setTimeout(() => resolve({ called: false, arg: undefined }), 20)
  })
}

test('runs every step in order, then the next layer; a step that answers ends it', async () => {
  const seen: string[] = []
  const step =
    (name: string, goOn = true): RequestHandler =>
    (_req, _res, next) => {
      seen.push(name)
      if (goOn) next()
    }
  expect(await run(inOrder(step('a'), step('b'), step('c')))).toEqual({
    called: true,
    arg: undefined,
  })
  expect(seen).toEqual(['a', 'b', 'c'])
  seen.length = 0
  expect((await run(inOrder(step('a'), step('b', false), step('c')))).called).toBe(false)
  expect(seen).toEqual(['a', 'b'])
})

test('an error passed on, thrown or rejected goes to the next layer as Express sends it', async () => {
  const failure = new Error('boom')
  const later: RequestHandler = () => {
    throw new Error('not reached')
  }
  expect(await run(inOrder((_req, _res, next) => next(failure), later))).toEqual({
    called: true,
    arg: failure,
  })
  expect(
    await run(
      inOrder(() => {
        throw failure
      }, later),
    ),
  ).toEqual({ called: true, arg: failure })
  expect(await run(inOrder(() => Promise.reject(failure), later))).toEqual({
    called: true,
    arg: failure,
  })
  const rejected = await run(inOrder(() => Promise.reject(undefined)))
  expect(rejected.arg).toBeInstanceOf(Error)
})
