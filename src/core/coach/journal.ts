import type { HeaderMap } from '../http/reply.js'
import { detachedCut, textBytes } from '../common/text-bytes.js'
import { entryBytes, type BudgetedJournal, type JournalBudget } from './journal-budget.js'
import type { JournalEntry, JournalRateLimit } from './journal-entry.js'

export type { JournalEntry, JournalRateLimit } from './journal-entry.js'

/** The most of a request body an entry keeps, in bytes. */
export const JOURNAL_BODY_LIMIT = 4096
/** The most body text one journal keeps in all: older entries lose their bodies first. */
export const JOURNAL_BODY_BUDGET = 64 * 1024
/** The most of one request header's value an entry keeps. */
const HEADER_VALUE_LIMIT = 256
/** The most request headers an entry keeps. */
const HEADER_COUNT_LIMIT = 16
/**
 * The longest header name an entry keeps whole (the sandbox's own are under 30): a name
 * is as much a client's text as a value, and the journal's last entries are kept over
 * its byte budget.
 */
const HEADER_NAME_LIMIT = 64

/**
 * A bounded journal of the most recent requests: memory stays flat under any load. It
 * keeps at most `size` entries and, with a budget (the sandbox's `maxJournalBytes`,
 * shared by every session's journal), gives its oldest entries up when all journals
 * together hold too many bytes, down to its last `JOURNAL_FLOOR`.
 *
 * Every session has one, most of them holding a request or two, so it allocates
 * nothing before its first entry and then an array of one: the first `push` onto an
 * empty array reserves room for 17.
 */
export class Journal implements BudgetedJournal {
  #entries: JournalEntry[] | undefined
  /**
   * Where its entries start in `#entries` (and its numbers in `#sizes`, `#sequences`):
   * dropping the oldest moves it on, and the dropped places are cut off once they are
   * half the array (a shift of every array for every request cost more than the rest
   * of the journal).
   */
  #head = 0
  /** Beside each entry, with a budget: the bytes it counts and its number in the budget's order. */
  #sizes: number[] | undefined
  #sequences: number[] | undefined
  #bytes = 0
  /** Entries holding a body, oldest first, and their text's total length. */
  #withBody: JournalEntry[] | undefined
  #bodyChars = 0
  #lastId = 0
  /** Whether it holds every request since it was made or cleared, each with its whole body. */
  #complete = true
  /** Called after every entry, before the listeners (a session's journal forwards to the sandbox's). */
  readonly #onAdd: ((entry: JournalEntry) => void) | undefined
  /** Made by the first `subscribe`: sessions' journals only ever have `onAdd`. */
  #listeners: Set<(entry: JournalEntry) => void> | undefined
  readonly #budget: JournalBudget | undefined
  /** @internal The budget's bookkeeping. */
  heapIndex = -1

  constructor(
    readonly size: number,
    onAdd?: (entry: JournalEntry) => void,
    budget?: JournalBudget,
  ) {
    this.#onAdd = onAdd
    this.#budget = budget
  }

  /**
   * Adds an entry. Its id is the request's, from the sandbox's one counter
   * (`X-Sandbox-Request-Id`): ids grow within a journal but leave gaps for other
   * sessions' requests. Without one (a journal of its own) it takes the next number.
   */
  add(entry: Omit<JournalEntry, 'id'> & { id?: number }) {
    // An entry with its id is kept as given (its request's, made for the journal).
    const full = (
      entry.id === undefined ? { ...entry, id: this.#lastId + 1 } : entry
    ) as JournalEntry
    this.#lastId = full.id
    if (this.size === 0 || full.bodyTruncated) this.#complete = false
    if (this.size > 0) {
      const entries = append(this.#entries, full)
      this.#entries = entries
      const budget = this.#budget
      if (budget) {
        const bytes = entryBytes(full)
        this.#bytes += bytes
        budget.count(bytes)
        this.#sizes = append(this.#sizes, bytes)
        this.#sequences = append(this.#sequences, budget.nextSequence())
      }
      if (entries.length - this.#head > this.size) this.dropOldest()
      if (full.body !== undefined) {
        const withBody = append(this.#withBody, full)
        this.#withBody = withBody
        this.#bodyChars += full.body.length
        while (this.#bodyChars > JOURNAL_BODY_BUDGET && withBody.length > 1) {
          this.#cutBody(withBody.shift() as JournalEntry)
        }
      }
      budget?.update(this)
    }
    this.#onAdd?.(full)
    if (this.#listeners) for (const listener of this.#listeners) listener(full)
  }

  /** The number of entries it holds. */
  get count(): number {
    return (this.#entries?.length ?? 0) - this.#head
  }

  /**
   * The bytes its entries count against the sandbox's `maxJournalBytes` (256 each plus
   * the UTF-8 bytes of their strings); 0 for a journal without a budget.
   */
  get bytes(): number {
    return this.#bytes
  }

  /**
   * Whether it holds every request since it was made or last cleared, each body whole:
   * false once one was dropped (the size limit, the byte budget) or a body cut (4 KiB,
   * the body budget). An export says it as `journalComplete`.
   */
  get complete(): boolean {
    return this.#complete
  }

  /** @internal The budget's number of the oldest entry (the budget asks only when there is one). */
  oldestSequence(): number {
    return this.#sequences?.[this.#head] ?? 0
  }

  /** Drops the oldest entry, as the size limit and the budget do. */
  dropOldest(): void {
    const entries = this.#entries
    const head = this.#head
    const dropped = entries?.[head]
    if (entries === undefined || dropped === undefined) return
    this.#complete = false
    if (dropped.body !== undefined && this.#withBody?.[0] === dropped) {
      this.#withBody.shift()
      this.#bodyChars -= dropped.body.length
    }
    const bytes = this.#sizes?.[head] ?? 0
    // The place no longer holds the entry, so it can go before the array is cut.
    ;(entries as Array<JournalEntry | undefined>)[head] = undefined
    this.#head = head + 1
    if (this.#head >= 32 && this.#head * 2 >= entries.length) {
      entries.splice(0, this.#head)
      this.#sizes?.splice(0, this.#head)
      this.#sequences?.splice(0, this.#head)
      this.#head = 0
    }
    this.#bytes -= bytes
    this.#budget?.dropped(this, bytes)
  }

  /** Drops an entry's body (the oldest of the journal's bodies), and its bytes from the count. */
  #cutBody(entry: JournalEntry) {
    const body = entry.body ?? ''
    this.#bodyChars -= body.length
    this.#complete = false
    delete entry.body
    entry.bodyTruncated = true
    const sizes = this.#sizes
    const entries = this.#entries
    if (!sizes || !entries) return
    const bytes = textBytes(body)
    ;(sizes[firstAfter(entries, entry.id - 1, this.#head)] as number) -= bytes
    this.#bytes -= bytes
    this.#budget?.count(-bytes)
  }

  /** The most recent entries, newest first; with `after`, only those with a greater id. */
  recent(limit = this.size, after?: number): JournalEntry[] {
    const entries = this.#entries ?? []
    let start = Math.max(this.#head, entries.length - limit)
    if (after !== undefined)
      start = Math.max(start, firstAfter(entries, after, this.#head))
    return entries.slice(start).reverse()
  }

  /** The entry of a request id, while the journal still holds it. */
  find(id: number): JournalEntry | undefined {
    const entries = this.#entries
    if (!entries) return undefined
    const entry = entries[firstAfter(entries, id - 1, this.#head)]
    return entry?.id === id ? entry : undefined
  }

  /** The id of the newest request this journal has seen (0 for none); clear() keeps it. */
  get lastId(): number {
    return this.#lastId
  }

  clear() {
    const bytes = this.#bytes
    this.#bytes = 0
    this.#budget?.count(-bytes)
    this.#entries = undefined
    this.#head = 0
    this.#sizes = undefined
    this.#sequences = undefined
    this.#withBody = undefined
    this.#bodyChars = 0
    this.#complete = true
    this.#budget?.update(this)
  }

  subscribe(listener: (entry: JournalEntry) => void): () => void {
    const listeners = (this.#listeners ??= new Set())
    listeners.add(listener)
    return () => listeners.delete(listener)
  }
}

/** The index of the first entry whose id is greater than `id` (ids grow): a binary search. */
function firstAfter(entries: readonly JournalEntry[], id: number, from: number): number {
  let low = from
  let high = entries.length
  while (low < high) {
    const middle = (low + high) >>> 1
    if ((entries[middle] as JournalEntry).id <= id) low = middle + 1
    else high = middle
  }
  return low
}

/** Adds `item` to `list`, making it when there is none yet. */
function append<Item>(list: Item[] | undefined, item: Item): Item[] {
  if (!list) return [item]
  list.push(item)
  return list
}

/** The request headers an entry keeps: `Content-Type` and `X-Sandbox-*`, bounded. */
export function journalHeaders(headers: Headers): Record<string, string> | undefined {
  let kept: Record<string, string> | undefined
  let count = 0
  for (const [name, value] of headers) {
    const wanted =
      name === 'content-type' ||
      (name.startsWith('x-sandbox-') && name !== 'x-sandbox-control-token')
    if (!wanted) continue
    if (++count > HEADER_COUNT_LIMIT) break
    kept ??= {}
    const key =
      name.length > HEADER_NAME_LIMIT ? detachedCut(name, HEADER_NAME_LIMIT) : name
    kept[key] =
      value.length > HEADER_VALUE_LIMIT ? detachedCut(value, HEADER_VALUE_LIMIT) : value
  }
  return kept
}

/** A request body as the journal keeps it: its first 4 KiB as text. */
export function journalBody(
  bytes: Uint8Array,
): Pick<JournalEntry, 'body' | 'bodyTruncated'> {
  if (bytes.byteLength === 0) return {}
  const cut = bytes.byteLength > JOURNAL_BODY_LIMIT
  // stream: a character cut in half at the limit is left out, not replaced.
  const body = new TextDecoder().decode(
    cut ? bytes.subarray(0, JOURNAL_BODY_LIMIT) : bytes,
    { stream: cut },
  )
  return cut ? { body, bodyTruncated: true } : { body }
}

/** The rate-limit state a response's headers report, when they do. */
export function journalRateLimit(headers: HeaderMap): JournalRateLimit | undefined {
  const limit = Number(headers['x-ratelimit-limit'])
  const remaining = Number(headers['x-ratelimit-remaining'])
  const reset = Number(headers['x-ratelimit-reset'])
  if (![limit, remaining, reset].every(Number.isFinite)) return undefined
  if (headers['x-ratelimit-limit'] === undefined) return undefined
  const retryAfter = Number(headers['retry-after'])
  return {
    limit,
    remaining,
    reset,
    ...(headers['retry-after'] !== undefined && Number.isFinite(retryAfter)
      ? { retryAfter }
      : {}),
  }
}
