import { expect } from 'vitest'
import { SandboxError } from './errors.js'

/** The SandboxError `run` throws; fails the test when it throws nothing or something else. */
export function thrown(run: () => unknown): SandboxError {
  try {
    run()
  } catch (error) {
    expect(error).toBeInstanceOf(SandboxError)
    return error as SandboxError
  }
  throw new Error('did not throw')
}
