import { createRequire } from 'node:module'
import { SandboxError } from '../core/common/errors.js'

// The package's peer range is msw ^2.15 || ^3, and msw 3 needs Node 22.12+ (its
// engines field): on an older Node it fails deep inside msw, at the first request, with
// "Promise.withResolvers is not a function". The Node entries check both at load, so the
// cause and the fix are named instead.

/**
 * The installed msw's version, from its package.json (msw 2 and 3 both list
 * "./package.json" in their exports map), or undefined when it cannot be read: an msw
 * the check cannot see is not blocked.
 */
export function readMswVersion(): string | undefined {
  try {
    const manifest: unknown = createRequire(import.meta.url)('msw/package.json')
    const version = (manifest as { version?: unknown } | null)?.version
    return typeof version === 'string' ? version : undefined
  } catch {
    return undefined
  }
}

/** Major and minor of a version such as "22.12.0" or "v20.19.1"; undefined when it has none. */
function parseVersion(version: string): [number, number] | undefined {
  const match = /^v?(\d+)\.(\d+)/.exec(version)
  return match ? [Number(match[1]), Number(match[2])] : undefined
}

const atLeast = (
  [major, minor]: [number, number],
  [wantMajor, wantMinor]: [number, number],
) => major > wantMajor || (major === wantMajor && minor >= wantMinor)

/**
 * Why this msw cannot run on this Node, as a SandboxError, or undefined when it can (or
 * when a version cannot be parsed: only known-bad pairs are refused).
 */
export function findMswProblem(
  entry: string,
  mswVersion: string | undefined,
  nodeVersion: string,
): SandboxError | undefined {
  const msw = mswVersion === undefined ? undefined : parseVersion(mswVersion)
  if (!msw) return undefined
  const action = `load "${entry}"`
  if (!atLeast(msw, [2, 15])) {
    return SandboxError.for(
      'WRONG_RUNTIME',
      action,
      `it needs msw 2.15 or newer; you have msw ${mswVersion}`,
      'Install msw@^2.15 (or msw@^3 on Node 22.12 or newer).',
    )
  }
  const node = parseVersion(nodeVersion)
  if (msw[0] === 3 && node && !atLeast(node, [22, 12])) {
    return SandboxError.for(
      'WRONG_RUNTIME',
      action,
      `msw 3 needs Node 22.12 or newer; you run Node ${nodeVersion.replace(/^v/, '')}`,
      'Upgrade Node, or install msw@^2.15.',
    )
  }
  return undefined
}

// Defined as true by the CommonJS build (tsup.config.ts), which bundles its own msw.
declare const __PETSTORE_SANDBOX_BUNDLED_MSW__: boolean | undefined

/** Throws the SandboxError of {@link findMswProblem} for the installed msw and this Node. */
export function assertSupportedMsw(entry: string): void {
  // The CommonJS build runs on the msw bundled into it: the installed one is not used.
  if (typeof __PETSTORE_SANDBOX_BUNDLED_MSW__ !== 'undefined') return
  const problem = findMswProblem(entry, readMswVersion(), process.versions.node)
  if (problem) throw problem
}
