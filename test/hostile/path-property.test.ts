import fc from 'fast-check'
import { expect, test } from 'vitest'
import { createSandbox } from 'petstore-sandbox'
import {
  fetchableMethod,
  PROPERTY_SEED,
  spoiledQuery,
  spoiledSegments,
} from './arbitraries.js'
import { portOf } from '../../src/core/pipeline/sandbox-port.js'

// Whatever dot segments, encoded dots, slashes or backslashes a path holds, and wherever
// they stand, a request that starts under /v1 or /__sandbox (as sent) never reaches
// another endpoint than it names: it is 400 invalid_path and changes nothing.

const plain = fc.constantFrom(
  'pets',
  '1',
  '__sandbox',
  'reset',
  'scenario',
  'clock',
  'v1',
)
const dotty = fc.constantFrom(
  '.',
  '..',
  '%2e',
  '%2E',
  '.%2e',
  '%2e.',
  '%2E%2e',
  'pets%2f..',
  'a%2Fb',
  '%5c..',
  '..\\..',
  'x\\y',
)
const path = fc
  .tuple(
    fc.constantFrom('/v1', '/__sandbox'),
    fc.array(plain, { maxLength: 3 }),
    dotty,
    fc.array(fc.oneof(plain, dotty), { maxLength: 3 }),
    fc.constantFrom('', '?limit=1', '?x=%2e%2e'),
  )
  .map(
    ([base, before, bad, after, query]) =>
      `${[base, ...before, bad, ...after].join('/')}${query}`,
  )

test('paths with dot segments or encoded separators are refused before routing, whatever else they hold', async () => {
  const sandbox = createSandbox({
    seed: 3,
    count: 5,
    clock: { now: '2027-01-01T00:00:00Z', frozen: true },
  })
  await sandbox.ready
  const before = JSON.stringify(sandbox.state())
  await fc.assert(
    fc.asyncProperty(
      path,
      fc.constantFrom('GET', 'POST', 'PUT', 'DELETE'),
      async (target, method) => {
        // The URL a server adapter builds folds the dots; the path as sent goes beside it.
        const request = new Request(`http://127.0.0.1${target.replace(/\\/g, '/')}`, {
          method,
          headers: {
            authorization: 'Bearer sandbox-free-key',
            'content-type': 'application/json',
          },
          ...(method === 'GET' ? {} : { body: '{"name":"rate-limited"}' }),
        })
        const reply = await portOf(sandbox).handle(request, { target })
        expect(reply?.status, target).toBe(400)
        expect(JSON.parse(reply?.text ?? '{}').code, target).toBe('invalid_path')
        expect(JSON.stringify(sandbox.state())).toBe(before)
      },
    ),
    { seed: PROPERTY_SEED, numRuns: 300 },
  )
})

test('a malformed percent-escape in any segment or parameter is refused before routing, whatever the method', async () => {
  const sandbox = createSandbox({
    seed: 3,
    count: 5,
    clock: { now: '2027-01-01T00:00:00Z', frozen: true },
  })
  await sandbox.ready
  const before = JSON.stringify(sandbox.state())
  const target = fc.oneof(
    fc
      .tuple(fc.constantFrom('/v1', '/__sandbox'), spoiledSegments)
      .map(([base, rest]) => `${base}/${rest}`),
    fc
      .tuple(
        fc.constantFrom(
          '/v1/pets',
          '/v1/pets/1',
          '/__sandbox/requests',
          '/__sandbox/reset',
        ),
        spoiledQuery,
      )
      .map(([path, query]) => `${path}?${query}`),
  )
  await fc.assert(
    fc.asyncProperty(target, fetchableMethod, async (sent, method) => {
      const request = new Request(`http://127.0.0.1${sent}`, {
        method,
        headers: { authorization: 'Bearer sandbox-free-key' },
      })
      const reply = await portOf(sandbox).handle(request, { target: sent })
      let malformed = false
      try {
        decodeURIComponent(sent)
      } catch {
        malformed = true
      }
      // A "%" put before two hexadecimal digits makes a good escape: routed as usual.
      if (!malformed) return
      expect(reply?.status, `${method} ${sent}`).toBe(400)
      expect(JSON.parse(reply?.text ?? '{}').code, sent).toBe('invalid_path')
      expect(JSON.stringify(sandbox.state())).toBe(before)
    }),
    { seed: PROPERTY_SEED, numRuns: 300 },
  )
})
