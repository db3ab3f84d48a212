import { detachedCut, isLowSurrogate, textBytes } from '../common/text-bytes.js'
import type { JournalEntry } from './journal-entry.js'

/**
 * The byte budget the journals of a sandbox share (option `maxJournalBytes`): one
 * server's sessions, each with its own journal, could otherwise hold gigabytes of long
 * paths (1,000 sessions x 100 entries x 15 KB). Over the budget, the oldest entries of
 * all journals go first, but a journal of `JOURNAL_FLOOR` entries or fewer loses none,
 * so a flooding neighbour cannot erase a quiet session's journal.
 * @see docs/sessions.md
 */

/** The entries every journal keeps whatever the budget: its last 10. */
export const JOURNAL_FLOOR = 10

/** The most of a path with its query an entry keeps, in characters; a longer one ends with `…`. */
export const JOURNAL_PATH_LIMIT = 2048

/**
 * What an entry counts besides the bytes of its strings: its numbers, flags and the
 * JSON around its fields (`{"id":…,"status":…,"rateLimit":{…}}`), as
 * `GET /__sandbox/requests` sends it. An entry with every field set spells about 250.
 */
export const ENTRY_OVERHEAD_BYTES = 256

/**
 * The size an entry counts against the budget: `ENTRY_OVERHEAD_BYTES` plus the
 * {@link textBytes} of each of its strings (path, message, body, header names and
 * values, and the rest): about the length of its JSON, and never less than what its
 * strings hold in memory. Without building the JSON: a GET pays some 250 ns for this,
 * `JSON.stringify` and counting its bytes ten times that.
 */
export function entryBytes(entry: JournalEntry): number {
  // `at` (an ISO time) and `method` (an HTTP token) are ASCII: a byte a character.
  let bytes =
    ENTRY_OVERHEAD_BYTES +
    entry.at.length +
    entry.method.length +
    textBytes(entry.path) +
    textBytes(entry.scenario)
  if (entry.key !== undefined) bytes += textBytes(entry.key)
  if (entry.plan !== undefined) bytes += textBytes(entry.plan)
  if (entry.operation !== undefined) bytes += textBytes(entry.operation)
  if (entry.code !== undefined) bytes += textBytes(entry.code)
  if (entry.message !== undefined) bytes += textBytes(entry.message)
  if (entry.session !== undefined) bytes += textBytes(entry.session)
  if (entry.body !== undefined) bytes += textBytes(entry.body)
  const headers = entry.headers
  if (headers !== undefined) {
    for (const name in headers) bytes += textBytes(name) + textBytes(headers[name] ?? '')
  }
  return bytes
}

/**
 * About the characters of an entry's strings that may be long (path, body, message,
 * headers): what writing it as JSON or HAR costs beyond its fixed fields, counted
 * without encoding anything (units of work per entry, slices.ts).
 */
export function entryChars(entry: JournalEntry): number {
  let chars = entry.path.length + (entry.body?.length ?? 0) + (entry.message?.length ?? 0)
  const headers = entry.headers
  if (headers !== undefined) {
    for (const name in headers) chars += name.length + (headers[name]?.length ?? 0)
  }
  return chars
}

/** A path with its query as an entry keeps it: its first 2 KiB, then `…`. */
export function journalPath(target: string): string {
  if (target.length <= JOURNAL_PATH_LIMIT) return target
  let end = JOURNAL_PATH_LIMIT
  // A character cut in half at the limit is left out.
  if (isLowSurrogate(target, end)) end--
  return detachedCut(target, end)
}

/** What the budget needs of a journal: its oldest entry's place in time, and to drop it. */
export interface BudgetedJournal {
  /** The journal's number of entries. */
  readonly count: number
  /** The budget's sequence number of the journal's oldest entry. */
  oldestSequence(): number
  /** Drops the oldest entry (and tells the budget). */
  dropOldest(): void
  /** Its place in the budget's heap, -1 when it is not there. */
  heapIndex: number
}

/**
 * The shared budget: the total bytes of every journal's entries, and the journals that
 * have entries to give (more than `JOURNAL_FLOOR`) in a min-heap by the age of their
 * oldest entry, so finding the oldest entry that may go costs a look at the top, and a
 * change of one journal a few comparisons.
 */
export class JournalBudget {
  #bytes = 0
  #sequence = 0
  readonly #heap: BudgetedJournal[] = []

  constructor(readonly maxBytes: number) {}

  /** The bytes all journals' entries count now. */
  get bytes(): number {
    return this.#bytes
  }

  /** A number for the next entry: entries of all journals in the order they came. */
  nextSequence(): number {
    return this.#sequence++
  }

  /** A journal's entries count `bytes` more (an entry added) or fewer (negative). */
  count(bytes: number) {
    this.#bytes += bytes
  }

  /** A journal dropped its oldest entry, which counted `bytes`. */
  dropped(journal: BudgetedJournal, bytes: number) {
    this.#bytes -= bytes
    const index = journal.heapIndex
    if (index === -1) return
    // Its oldest entry is younger now: it can only move down, or out at the floor.
    if (journal.count <= JOURNAL_FLOOR) this.#remove(index)
    else this.#down(index)
  }

  /**
   * A journal's entries changed (one added, all cleared): enters or leaves the heap as it
   * passes the floor (an added entry leaves its oldest, and so its place, as it was),
   * then drops the oldest entries of all journals while over the budget.
   */
  update(journal: BudgetedJournal) {
    const index = journal.heapIndex
    if (journal.count <= JOURNAL_FLOOR) {
      if (index !== -1) this.#remove(index)
    } else if (index === -1) {
      journal.heapIndex = this.#heap.length
      this.#heap.push(journal)
      this.#up(journal.heapIndex)
    }
    const heap = this.#heap
    while (this.#bytes > this.maxBytes && heap.length > 0) {
      // Tells `dropped`, which moves the journal down or out.
      ;(heap[0] as BudgetedJournal).dropOldest()
    }
  }

  #remove(index: number) {
    const heap = this.#heap
    const removed = heap[index] as BudgetedJournal
    const last = heap.pop() as BudgetedJournal
    removed.heapIndex = -1
    if (last === removed) return
    heap[index] = last
    last.heapIndex = index
    this.#down(this.#up(index))
  }

  /** Moves the journal at `index` up while older than its parent; returns where it ends. */
  #up(index: number): number {
    const heap = this.#heap
    const journal = heap[index] as BudgetedJournal
    const key = journal.oldestSequence()
    while (index > 0) {
      const parentIndex = (index - 1) >> 1
      const parent = heap[parentIndex] as BudgetedJournal
      if (parent.oldestSequence() <= key) break
      heap[index] = parent
      parent.heapIndex = index
      index = parentIndex
    }
    heap[index] = journal
    journal.heapIndex = index
    return index
  }

  #down(index: number) {
    const heap = this.#heap
    const journal = heap[index] as BudgetedJournal
    const key = journal.oldestSequence()
    for (;;) {
      let child = 2 * index + 1
      if (child >= heap.length) break
      const right = child + 1
      if (
        right < heap.length &&
        (heap[right] as BudgetedJournal).oldestSequence() <
          (heap[child] as BudgetedJournal).oldestSequence()
      )
        child = right
      const smaller = heap[child] as BudgetedJournal
      if (smaller.oldestSequence() >= key) break
      heap[index] = smaller
      smaller.heapIndex = index
      index = child
    }
    heap[index] = journal
    journal.heapIndex = index
  }
}
