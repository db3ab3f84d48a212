import { expect, test } from 'vitest'
import { LazySegmenter } from './lazy-segmenter.js'

test('LazySegmenter segments as Intl.Segmenter does, with the same options', () => {
  const text = 'Rex 🐕‍🦺 and Fido 👍🏽: e\u0301t\u00e9'
  const cases: [string?, Intl.SegmenterOptions?][] = [[], ['en', { granularity: 'word' }]]
  for (const [locale, options] of cases) {
    const lazy = new LazySegmenter(locale, options)
    const real = new Intl.Segmenter(locale, options)
    expect([...lazy.segment(text)]).toEqual([...real.segment(text)])
    expect(lazy.resolvedOptions()).toEqual(real.resolvedOptions())
  }
  expect(LazySegmenter.supportedLocalesOf(['en', 'de'])).toEqual(
    Intl.Segmenter.supportedLocalesOf(['en', 'de']),
  )
})

test('LazySegmenter makes its segmenter on first use, not when made', () => {
  // Intl.Segmenter throws on a malformed locale when constructed; the lazy one when used.
  const lazy = new LazySegmenter('not a locale!')
  expect(() => lazy.segment('x')).toThrow(RangeError)
})
