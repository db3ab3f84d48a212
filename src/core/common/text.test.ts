import { describe, expect, it } from 'vitest'
import { thousands, truncate } from './text.js'

describe('thousands', () => {
  it('groups digits as toLocaleString("en-US") does for integers', () => {
    const values = [
      0, 7, 42, 999, 1000, 1001, 12_345, 100_000, 999_999, 1_000_000, 60_000,
    ]
    for (const value of [
      ...values,
      ...values.slice(1).map((v) => -v),
      Number.MAX_SAFE_INTEGER,
    ])
      expect(thousands(value)).toBe(value.toLocaleString('en-US'))
  })
})

describe('truncate', () => {
  it('keeps short text and marks cut text', () => {
    expect(truncate('abc', 5)).toBe('abc')
    expect(truncate('abcdef', 3)).toBe('abc…')
  })
})
