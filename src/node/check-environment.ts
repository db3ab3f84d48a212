import { SandboxError } from '../core/errors.js'

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
