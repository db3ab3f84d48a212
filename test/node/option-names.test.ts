import { createSandbox } from 'petstore-sandbox'
import { createSandboxApp, createSandboxMiddleware } from 'petstore-sandbox/express'
import { setupSandboxServer } from 'petstore-sandbox/node'
import { expect, test } from 'vitest'
import { thrown } from '../../src/core/common/thrown.test-support.js'

// A misspelt option did nothing, and options of the wrong kind were TypeErrors from deep
// inside (`entries is not a function`): each is a SandboxError naming the option and the fix.

const refused = (create: () => unknown) => thrown(create).message

test('a misspelt option is refused with the name it meant, in every entry', () => {
  expect(refused(() => createSandbox({ senario: 'rate-limited' } as never))).toMatch(
    /^Failed to create the sandbox: "senario" is not an option of the sandbox\. Did you mean scenario\? The options are seed, count, /,
  )
  expect(refused(() => setupSandboxServer({ cuont: 3 } as never))).toMatch(
    /"cuont" is not an option of the sandbox\. Did you mean count\?/,
  )
  // The adapters' own options count, and are suggested.
  expect(refused(() => createSandboxMiddleware({ bodyLimt: 5 } as never))).toMatch(
    /"bodyLimt" is not an option of the sandbox\. Did you mean bodyLimit\?/,
  )
  expect(refused(() => createSandboxApp({ controlTokn: 'x' } as never))).toMatch(
    /Did you mean controlToken\?/,
  )
  expect(() => createSandboxApp({ bodyLimit: 1024, controlToken: 'abc' })).not.toThrow()
  expect(refused(() => createSandbox({ idelNow: () => 0 } as never))).toMatch(
    /"idelNow" is not an option of the sandbox\. Did you mean idleNow\?/,
  )
})

test('idleNow is a function returning milliseconds, in every entry', () => {
  const fix =
    'Pass a function returning milliseconds, as Date.now() does: idleNow: () => idle, moving idle past sessionTtlSeconds to expire sessions; or leave it out for real time.'
  const cases: Array<[unknown, string]> = [
    [3_600, 'option idleNow must be a function, got number 3600'],
    ['Date.now', 'option idleNow must be a function, got the string "Date.now"'],
    [
      () => '12:00',
      'option idleNow must return milliseconds (a number a Date can hold), it returned "12:00"',
    ],
    [() => Number.NaN, 'it returned NaN'],
    [() => 1e300, 'it returned 1e+300'],
  ]
  for (const [idleNow, message] of cases) {
    for (const create of [
      () => createSandbox({ idleNow } as never),
      () => setupSandboxServer({ idleNow } as never),
      () => createSandboxApp({ idleNow } as never),
      () => createSandboxMiddleware({ idleNow } as never),
    ]) {
      const text = refused(create)
      expect(text, String(idleNow)).toContain(message)
      expect(text).toContain(fix)
    }
  }
  expect(() => createSandbox({ idleNow: () => Date.now() })).not.toThrow()
})

test('options of the wrong kind name the option and what it takes', () => {
  const cases: Array<[unknown, string]> = [
    ['seed 42', 'the options must be an object, got the string "seed 42"'],
    [{ scenarios: 'flaky.json' }, 'option scenarios must be an array'],
    [{ baseUrl: 5 }, 'option baseUrl must be a string or an array of strings'],
    [{ store: {} }, 'option store must be an object with a write(change) method'],
    [{ clock: 5 }, 'option clock must be { now?, frozen? }'],
    [{ clock: { frozen: 'yes' } }, 'option clock must be { now?, frozen? }'],
    [{ fixtures: 3 }, 'option fixtures must be an object'],
  ]
  for (const [options, message] of cases) {
    expect(
      refused(() => createSandbox(options as never)),
      JSON.stringify(options),
    ).toContain(message)
  }
  // Through the Node entry, which reads the paths among them first.
  expect(
    refused(() => setupSandboxServer({ scenarios: 'flaky.json' } as never)),
  ).toContain('option scenarios must be an array')
  expect(refused(() => setupSandboxServer(null as never))).toContain(
    'the options must be an object, got null',
  )
})

test('an option set to null is no option, in every entry (fixtures: config.fixtures ?? null)', async () => {
  const nulls = Object.fromEntries(
    [
      'scenarios',
      'scenario',
      'store',
      'fixtures',
      'clock',
      'baseUrl',
      'seed',
      'count',
    ].map((name) => [name, null]),
  ) as never
  const defaults = createSandbox()
  const sandbox = createSandbox(nulls)
  await Promise.all([defaults.ready, sandbox.ready])
  expect(defaults.db.pets.count()).toBeGreaterThan(0)
  expect(sandbox.db.pets.findMany()).toEqual(defaults.db.pets.findMany())
  expect(sandbox.scenario.name).toBe('default')
  const server = setupSandboxServer(nulls)
  await server.sandbox.ready
  expect(server.sandbox.db.pets.count()).toBe(defaults.db.pets.count())
  expect(() => createSandboxApp(nulls)).not.toThrow()
  // The adapters' own options too, in either argument.
  const adapterNulls = Object.fromEntries(
    ['bodyLimit', 'onError', 'allowedOrigins', 'allowedHosts', 'controlToken'].map(
      (name) => [name, null],
    ),
  ) as never
  expect(() => createSandboxApp(adapterNulls)).not.toThrow()
  expect(() => createSandboxApp(sandbox, adapterNulls)).not.toThrow()
  expect(() =>
    createSandboxMiddleware(sandbox, { bodyLimit: null } as never),
  ).not.toThrow()
})

test("msw's own options given to the sandbox say where they belong", () => {
  expect(
    refused(() => setupSandboxServer({ onUnhandledRequest: 'error' } as never)),
  ).toBe(
    "Failed to create the sandbox: onUnhandledRequest is an option of msw's, not of the sandbox. Give it where msw starts: server.listen({ onUnhandledRequest: 'error' }) in tests (worker.start() in the browser); msw 2 calls it onUnhandledRequest, msw 3 onUnhandledFrame.",
  )
})

test("the adapter's own options beside a ready sandbox are checked by name too", () => {
  const sandbox = createSandbox()
  expect(refused(() => createSandboxMiddleware(sandbox, { bodyLimt: 5 } as never))).toBe(
    'Failed to create the Express adapter: "bodyLimt" is not an option of the adapter. Did you mean bodyLimit? The adapter\'s options are bodyLimit.',
  )
  expect(refused(() => createSandboxApp(sandbox, { seed: 7 } as never))).toBe(
    'Failed to create the Express adapter: "seed" is not an option of the adapter (it is one of the sandbox, which is made already). Give seed to createSandbox(), or pass all the options in the first argument instead of a sandbox.',
  )
  // Beside options, the sandbox's option belongs with them.
  expect(refused(() => createSandboxApp({ seed: 1 }, { count: 5 } as never))).toBe(
    'Failed to create the Express adapter: "count" is not an option of the adapter (it is one of the sandbox). Put count in the first argument, with the other options of the sandbox.',
  )
  expect(refused(() => createSandboxApp(sandbox, 'x' as never))).toMatch(
    /its options must be an object, got the string "x"/,
  )
  expect(() =>
    createSandboxApp(sandbox, { controlToken: 'abc', bodyLimit: 1024 }),
  ).not.toThrow()
})
