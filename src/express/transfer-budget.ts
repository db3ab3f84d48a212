import { fail, type Failure } from '../core/http/api-errors.js'

/** A body or answer this large or larger counts against the budget; smaller ones never wait. */
export const LARGE_TRANSFER_BYTES = 1024 * 1024

/** The bytes of large bodies and answers one server holds at once (docs/server.md). */
export const MAX_LARGE_IN_FLIGHT_BYTES = 64 * 1024 * 1024

/**
 * The bytes of large request bodies (session imports, up to 16 MiB) and large answers
 * (session exports, HAR) that one server holds at once: a client that uploads slowly or
 * stops reading holds its bytes until the transport's timeouts end it, so without a
 * budget many connections would hold gigabytes. A transfer that does not fit now is
 * refused with 503 `service_unavailable` and `Retry-After` (a body is read and
 * discarded first, `discardBody`, so a client still sending it reads the 503); one
 * larger than the whole budget passes when it is the only one. `/v1` answers (at most
 * 100 pets) are never large.
 */
export class TransferBudget {
  #used = 0

  constructor(
    readonly max = MAX_LARGE_IN_FLIGHT_BYTES,
    readonly large = LARGE_TRANSFER_BYTES,
  ) {}

  /** Bytes of large transfers held now. */
  get used(): number {
    return this.#used
  }

  /** Takes `bytes` when the transfer is large; false when they do not fit now. */
  take(bytes: number): boolean {
    if (bytes < this.large) return true
    if (this.#used > 0 && this.#used + bytes > this.max) return false
    this.#used += bytes
    return true
  }

  /** Gives back what {@link take} took for `bytes`. */
  give(bytes: number): void {
    if (bytes >= this.large) this.#used = Math.max(0, this.#used - bytes)
  }

  /** The 503 of a transfer that does not fit now. */
  busy(what: 'body' | 'answer'): Failure {
    return fail(
      'service_unavailable',
      `The server holds ${this.max >= 1024 * 1024 ? `${Math.round(this.max / (1024 * 1024))} MiB` : `${Math.round(this.max / 1024)} KiB`} of large ${what === 'body' ? 'request bodies' : 'answers'} in flight at most, and other clients' use it now. Send again after Retry-After; an export imports without its "journal" field, which makes it smaller.`,
      { 'retry-after': '1' },
    )
  }
}
