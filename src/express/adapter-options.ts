import { quoted } from '../core/common/describe-issues.js'
import { SandboxError } from '../core/common/errors.js'
import { createSandbox, type Sandbox } from '../core/sandbox.js'
import {
  checkAdapterOptionNames,
  checkOptionNames,
  releaseStoreOf,
  withoutNulls,
} from '../core/sandbox-options.js'
import { resolveNodeOptions, type NodeSandboxOptions } from '../node/files.js'

// The Express adapters' own options (the body limit), and telling them from a sandbox's
// when both come in one object (createSandboxMiddleware, createSandboxApp).

/** The largest request body the adapter reads: 64 KiB, a NewPet is well under 1 KiB. */
export const DEFAULT_BODY_LIMIT = 64 * 1024

/** Options of the Express adapter itself. */
export interface ExpressAdapterOptions {
  /** The largest request body in bytes; a larger one gets 413 `payload_too_large`. Default 64 KiB. */
  bodyLimit?: number
}

/** The options of the adapter, not of the sandbox, when both come in one object. */
const ADAPTER_KEYS = ['bodyLimit']

/** Tells a ready sandbox from options, so both entry points accept either. */
export function isSandbox(value: unknown): value is Sandbox {
  return (
    typeof value === 'object' &&
    value !== null &&
    Array.isArray((value as Sandbox).handlers) &&
    typeof (value as Sandbox).reset === 'function'
  )
}

/** Splits sandbox options from adapter options and creates the sandbox when needed. */
export function resolveSandbox<Adapter extends object>(
  sandboxOrOptions: Sandbox | (NodeSandboxOptions & Adapter),
  adapterOptions: Adapter,
  adapterKeys: readonly string[] = ADAPTER_KEYS,
  /** Refuses adapter options out of range, before a sandbox is made of the rest. */
  checkAdapter: (adapter: Adapter) => void = (adapter) =>
    void checkBodyLimit((adapter as ExpressAdapterOptions).bodyLimit),
): { sandbox: Sandbox; adapter: Adapter } {
  const ready = isSandbox(sandboxOrOptions)
  try {
    checkAdapterOptionNames(adapterOptions, adapterKeys, ready)
    if (ready) {
      const adapter = withoutNulls(adapterOptions)
      checkAdapter(adapter)
      return { sandbox: sandboxOrOptions, adapter }
    }
    checkOptionNames(sandboxOrOptions, adapterKeys)
    const sandboxOptions: Record<string, unknown> = {}
    // A copy: the sandbox's own adapter options are added to it.
    const adapter = { ...withoutNulls(adapterOptions) } as Record<string, unknown>
    for (const [key, value] of Object.entries(sandboxOrOptions)) {
      if (!adapterKeys.includes(key)) sandboxOptions[key] = value
      else if (value != null) adapter[key] ??= value
    }
    checkAdapter(adapter as Adapter)
    return {
      sandbox: createSandbox(resolveNodeOptions(sandboxOptions as NodeSandboxOptions)),
      adapter: adapter as Adapter,
    }
  } catch (error) {
    // The sandbox was never made: a store among the options lets go of its file.
    if (!ready) releaseStoreOf(sandboxOrOptions)
    throw error
  }
}

/** The body limit in bytes, or a SandboxError naming the option. */
export function checkBodyLimit(value: number | undefined) {
  if (value === undefined) return DEFAULT_BODY_LIMIT
  if (!Number.isInteger(value) || value < 1 || value > 100 * 1024 * 1024) {
    throw SandboxError.for(
      'INVALID_OPTION',
      'create the Express adapter',
      `bodyLimit ${quoted(value)} is not a number of bytes from 1 to 104857600`,
      `Leave it out for ${DEFAULT_BODY_LIMIT} bytes (64 KiB), or pass a positive integer.`,
    )
  }
  return value
}
