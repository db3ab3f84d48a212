/**
 * The requests a sandbox's own msw handler answered, so that msw's `response:mocked`
 * listener (attach-sandbox.ts) tells them from the answers of the user's handlers,
 * which it journals as overrides. One per sandbox (its port holds it): two sandboxes of
 * one process never take each other's answers for their own.
 */
export class AnsweredRequests {
  /** The requests themselves, as the handler saw them (`setupServer`). */
  readonly #requests = new WeakSet<Request>()
  /**
   * The same by msw's request id: `setupWorker` hands its `response:mocked` listeners a
   * request rebuilt from the worker's message, not the one the handler saw, so only the
   * id ties the two (without it every answer of the sandbox in the browser was journalled
   * a second time, as an override's). An id is taken back when its event reads it; where
   * no event follows (`getResponse`) the oldest go past {@link MAX_ANSWERED_IDS}.
   */
  readonly #ids = new Set<string>()

  /** The sandbox's handler answered this request. */
  note(request: Request, requestId: string | undefined): void {
    this.#requests.add(request)
    if (requestId === undefined) return
    const ids = this.#ids
    ids.add(requestId)
    if (ids.size > MAX_ANSWERED_IDS) ids.delete(ids.values().next().value as string)
  }

  /** Whether the sandbox itself (not a user's handler) answered this request; its id is taken back. */
  has(request: Request, requestId?: string): boolean {
    const byId = requestId !== undefined && this.#ids.delete(requestId)
    return byId || this.#requests.has(request)
  }
}

/** The most request ids kept whose event has not come (yet). */
const MAX_ANSWERED_IDS = 1024
