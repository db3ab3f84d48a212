import { describe, expect, test } from 'vitest'
import { sharedTests } from './shared.js'

describe('node environment', () => {
  test('has no DOM', () => expect(typeof document).toBe('undefined'))
  sharedTests()
})
