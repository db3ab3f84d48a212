import { expect, test } from 'vitest'
import { withinLoadTime } from './handlers-module.js'

// A --handlers module that never finishes loading (the other mistakes are tested through
// the CLI in test/overrides, where Node, not vitest, loads the module).

test('a module that never finishes loading (a top-level await) is an error, not a silent exit', async () => {
  const never = new Promise(() => {})
  await expect(withinLoadTime(never, 'mocks.mjs', 50)).rejects.toThrow(
    'Failed to load --handlers mocks.mjs: it did not finish loading within 0.05 s (a top-level await that never settles?).',
  )
  await expect(withinLoadTime(Promise.resolve(7), 'mocks.mjs', 50)).resolves.toBe(7)
})
