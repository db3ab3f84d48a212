import { expect, test } from 'vitest'
import { mswDomWarning } from './check-environment.js'

// msw 3's known upstream failures in DOM emulations, said in the sandbox's words
// (seen with msw 3.0.5, jsdom 27, happy-dom 20: XHR under jsdom, everything under
// happy-dom goes to the network).
test('msw 3 under jsdom: XMLHttpRequest is not intercepted, fetch is', () => {
  const warning = mswDomWarning('3.0.5', 'jsdom')
  expect(warning).toMatch(/under jsdom does not intercept XMLHttpRequest/)
  expect(warning).toMatch(/"Network Error", while fetch works/)
  expect(warning).toMatch(/msw@\^2\.15/)
})

test('msw 3 under happy-dom: neither is intercepted', () => {
  expect(mswDomWarning('3.1.0', 'happy-dom')).toMatch(
    /under happy-dom intercepts neither fetch nor XMLHttpRequest.*Cross-Origin Request Blocked/,
  )
})

test('nothing to say for msw 2, or for msw 3 without a DOM emulation', () => {
  expect(mswDomWarning('2.15.0', 'jsdom')).toBeUndefined()
  expect(mswDomWarning('2.99.1', 'happy-dom')).toBeUndefined()
  expect(mswDomWarning('3.0.5', undefined)).toBeUndefined()
  expect(mswDomWarning(undefined, 'jsdom')).toBeUndefined()
})
