import type { Failure } from '../http/api-errors.js'
import type { JournalEntry } from '../coach/journal.js'
import type { Sandbox } from '../world/sandbox-types.js'
import type { CarryingInternals } from '../world/session-carry.js'
import type { SandboxWorld } from '../world/world.js'

/** The control API's base path, beside the API's on every origin the API answers. */
export const CONTROL_PATH = '/__sandbox'

/** What an operation of the control API gets. */
export interface ControlCall {
  sandbox: Sandbox
  /** How the sandbox carries sessions out (export, HAR) and in (import). */
  carrying: CarryingInternals
  /** The session the request names (made on first use): the sandbox itself by default. */
  session(): SandboxWorld
  /** A journal entry by request id, from whichever session holds it. */
  findRequest(id: number): JournalEntry | undefined
  request: Request
  url: URL
  /** Path parameters by name (`id`), as sent (still percent-encoded). */
  params: Record<string, string>
  /** The request body, as the transport read it. */
  body(): Promise<Uint8Array>
  /**
   * Takes room for a large answer of about `bytes` before it is built: a 503 failure
   * when the server has none now (pipeline.ts HandleInit `reserve`).
   */
  reserve?: (bytes: number) => Failure | undefined
}
