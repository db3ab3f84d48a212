/** One request as the journal (`GET /__sandbox/requests`) and the CLI log see it. */
export interface JournalEntry {
  id: number
  /** Sandbox-clock time of the request. */
  at: string
  method: string
  /** Path and query as sent. */
  path: string
  status: number
  durationMs: number
  scenario: string
  /** The demo key used, when it is a known key (unknown tokens are never echoed). */
  key?: string
  plan?: string
  operation?: string
  code?: string
  /** The request used the deprecated getPet endpoint. */
  deprecated?: true
  /** The request came while an earlier 429's Retry-After was still running. */
  ignoredRetryAfter?: true
  /** One of your own msw handlers answered it (option `handlers`), not the sandbox. */
  override?: true
  /** The session it belongs to, when not the default one (`X-Sandbox-Session`, a session key). */
  session?: string
}

/** A bounded journal of the most recent requests: memory stays flat under any load. */
export class Journal {
  readonly #entries: JournalEntry[] = []
  readonly #listeners = new Set<(entry: JournalEntry) => void>()
  #nextId = 1

  constructor(readonly size: number) {}

  add(entry: Omit<JournalEntry, 'id'>) {
    const full = { id: this.#nextId++, ...entry }
    if (this.size > 0) {
      this.#entries.push(full)
      if (this.#entries.length > this.size) this.#entries.shift()
    }
    for (const listener of this.#listeners) listener(full)
  }

  /** The most recent entries, newest first. */
  recent(limit = this.size): JournalEntry[] {
    return this.#entries.slice(-limit).reverse()
  }

  clear() {
    this.#entries.length = 0
  }

  subscribe(listener: (entry: JournalEntry) => void): () => void {
    this.#listeners.add(listener)
    return () => this.#listeners.delete(listener)
  }
}
