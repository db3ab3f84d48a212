import { SandboxError } from '../core/common/errors.js'

// Jest's jsdom environment is Node dressed as a browser: it resolves packages with the
// "browser" export condition (so `petstore-sandbox/node` lands on wrong-runtime.ts) and
// hides Node's fetch globals (Request, Response, TextEncoder), which msw's setupServer
// needs. Both symptoms point the wrong way ("a browser bundle", "Request is not
// defined"); msw's documented cure is the jest-fixed-jsdom environment.

// Jest's module wrapper passes `jest` to every CommonJS module it loads.
declare const jest: unknown

/** The DOM emulation this code runs in ("jsdom", "happy-dom"), from its user agent. */
export function detectDomEmulation(): 'jsdom' | 'happy-dom' | undefined {
  const agent = typeof navigator === 'undefined' ? '' : String(navigator.userAgent)
  if (/jsdom/i.test(agent)) return 'jsdom'
  if (/happy-?dom/i.test(agent)) return 'happy-dom'
  return undefined
}

/** Whether Jest loaded this module (its module wrapper, or its worker's environment). */
export function isUnderJest(): boolean {
  return (
    typeof jest !== 'undefined' ||
    (typeof process !== 'undefined' && process.env?.JEST_WORKER_ID !== undefined)
  )
}

/** The reason and fix when a Node entry runs in Jest's jsdom environment. */
export function jestJsdomProblem(entry: string): SandboxError {
  return SandboxError.for(
    'WRONG_RUNTIME',
    `load "${entry}"`,
    'the test runs in Jest\'s jsdom environment, which resolves packages with the "browser" export condition and hides the fetch globals (Request, Response, TextEncoder) that msw\'s setupServer needs',
    "Set testEnvironment: 'jest-fixed-jsdom' in the Jest config (npm install --save-dev jest-fixed-jsdom: msw's documented Jest setup), or testEnvironment: 'node' for tests without a DOM (see docs/getting-started.md#with-jest).",
  )
}

/**
 * Why msw's setupServer cannot run here, as a SandboxError, or undefined when it can:
 * a DOM emulation without the fetch globals (jsdom forced to the node condition).
 */
export function findEnvironmentProblem(entry: string): SandboxError | undefined {
  const missing = ['Request', 'Response', 'Headers', 'TextEncoder'].filter(
    (name) => typeof (globalThis as Record<string, unknown>)[name] !== 'function',
  )
  if (missing.length === 0) return undefined
  if (detectDomEmulation() === 'jsdom' && isUnderJest()) return jestJsdomProblem(entry)
  return SandboxError.for(
    'WRONG_RUNTIME',
    `load "${entry}"`,
    `this runtime has no ${missing.join(', ')}, which msw's setupServer needs`,
    "Run it on Node.js 20.19 or newer without a DOM emulation that hides them; under Jest, use testEnvironment: 'jest-fixed-jsdom' or 'node' (see docs/getting-started.md#with-jest).",
  )
}

/** Throws the SandboxError of {@link findEnvironmentProblem}. */
export function assertNodeEnvironment(entry: string): void {
  const problem = findEnvironmentProblem(entry)
  if (problem) throw problem
}

/**
 * What msw 3 cannot do in a DOM emulation (upstream failures, seen with msw 3.0.5, jsdom
 * 27 and happy-dom 20): under jsdom it does not intercept XMLHttpRequest (axios gets
 * "Network Error"; fetch works), under happy-dom neither fetch nor XMLHttpRequest (the
 * request goes to the network: "Cross-Origin Request Blocked" or ENOTFOUND). Undefined
 * when nothing is known to fail. The sandbox says so once, in its own words, since the
 * symptoms point at the network, not at the test setup.
 */
export function mswDomWarning(
  mswVersion: string | undefined,
  dom: 'jsdom' | 'happy-dom' | undefined,
): string | undefined {
  const major = Number(/^(\d+)\./.exec(mswVersion ?? '')?.[1])
  if (!(major >= 3) || dom === undefined) return undefined
  if (dom === 'jsdom') {
    return `petstore-sandbox: msw ${mswVersion} under jsdom does not intercept XMLHttpRequest (an upstream msw 3 issue): clients built on it (axios, XHR) fail with "Network Error", while fetch works. For those tests install msw@^2.15, or run them in the node environment (// @vitest-environment node).`
  }
  return `petstore-sandbox: msw ${mswVersion} under happy-dom intercepts neither fetch nor XMLHttpRequest (an upstream msw 3 issue): requests go to the network and fail ("Cross-Origin Request Blocked", ENOTFOUND). Install msw@^2.15 for happy-dom tests, or use the node environment (or jsdom, where fetch works).`
}
