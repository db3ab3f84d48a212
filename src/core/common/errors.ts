/**
 * Codes of {@link SandboxError}: programmer errors (bad options, a malformed scenario or
 * fixtures file), never simulated API failures, which are responses.
 */
export type SandboxErrorCode =
  | 'INVALID_OPTION'
  | 'INVALID_SCENARIO'
  | 'UNKNOWN_SCENARIO'
  | 'INVALID_FIXTURES'
  | 'INVALID_CLOCK'
  | 'FILE_NOT_READABLE'
  | 'WRONG_RUNTIME'
  | 'INVALID_PERSISTED_STATE'
  | 'INVALID_SESSION_EXPORT'
  | 'STORAGE_FAILED'
  | 'FILE_LOCKED'
  | 'CLIENT_MISBEHAVED'
  | 'NOT_READY'

/**
 * The one error class the sandbox throws. Its message reads
 * "Failed to <action>: <reason>. <fix>." and `code` lets callers branch.
 *
 * @example
 * try { createSandbox({ count: -1 }) } catch (error) {
 *   if (error instanceof SandboxError) console.error(error.code, error.message)
 * }
 * @see docs/errors.md#errors-of-the-sandbox-itself
 */
export class SandboxError extends Error {
  readonly code: SandboxErrorCode

  constructor(code: SandboxErrorCode, message: string, options?: { cause?: unknown }) {
    super(message, options)
    this.name = 'SandboxError'
    this.code = code
  }

  /** Builds the error from its three parts so every message has the same form. */
  static for(code: SandboxErrorCode, action: string, reason: string, fix: string) {
    return new SandboxError(code, `Failed to ${action}: ${reason}. ${fix}`)
  }
}
