// Work that a large request makes the sandbox do (an import parsed, checked and
// restored, a data scenario seeded, an export or a HAR built) runs in slices with a
// yield to the runtime between them, so that a shared server goes on answering other
// clients meanwhile (docs/performance.md#neighbours). A slice is a count of units of
// work, each about as costly as checking one pet, so that what a slice does is the same
// on every machine and a test can assert it.

/**
 * Units of work per slice. A unit is about a microsecond on the bench machine (checking
 * or copying a pet, a JSON value parsed): a slice is a few milliseconds.
 */
export const SLICE_UNITS = 4096

/**
 * The runtime's own way to run a task next, as it was when the sandbox loaded (a test
 * that fakes timers afterwards, vi.useFakeTimers, does not stop the sandbox's sliced
 * work): `setImmediate` where there is one (Node: it runs after the loop has read the
 * network, so other requests still go between two turns, and it does not wait the
 * millisecond that setTimeout(0) waits at least: 250 turns of seeding 100k pets waited
 * 0.3 s of 1.8 s), else `setTimeout(0)` (browsers, workers).
 */
const nextTask: (callback: () => void) => unknown = realNextTask()

function realNextTask(): (callback: () => void) => unknown {
  // Used only where the runtime has it (the core's types know no Node); browsers and
  // workers take setTimeout below.
  const { setImmediate } = globalThis as {
    setImmediate?: (callback: () => void) => unknown
  }
  if (typeof setImmediate === 'function') return setImmediate.bind(globalThis)
  const setTimeout = globalThis.setTimeout.bind(globalThis)
  return (callback) => setTimeout(callback, 0)
}

/**
 * Steps of sliced work: a generator that yields, after each slice, the units it did in
 * it, and returns its result. {@link runNow} runs one to its end at once (where the
 * caller is synchronous: a file, an option), {@link runInSlices} with a task between
 * slices.
 */
export type Steps<Result> = Generator<number, Result, void>

/** Runs steps to their end, without yielding to anything. */
export function runNow<Result>(steps: Steps<Result>): Result {
  for (;;) {
    const step = steps.next()
    if (step.done) return step.value
  }
}

/**
 * Sliced work waiting for its turn (the callbacks that resume it), oldest first, shared
 * by every sandbox of the runtime: they share its event loop.
 */
const waiting: Array<() => void> = []
let pumping = false

/**
 * Waits for this work's next turn: one slice of sliced work runs per task of the
 * runtime, whichever request it is for, in turn. Twenty large requests at once then
 * delay the others by one slice, not by twenty: with a task of its own each, every one
 * resumed in the same task (the runtime runs all the timers that are due before it
 * reads the network again), and a server answered a bystander after 20 slices and 20
 * answers of megabytes (docs/performance.md#neighbours).
 */
export function nextTurn(): Promise<void> {
  return new Promise((resolve) => {
    waiting.push(resolve)
    if (!pumping) {
      pumping = true
      nextTask(takeTurn)
    }
  })
}

/**
 * Resumes the work whose turn it is (its slice runs in this task), and asks for the next
 * task: a macrotask in every runtime (Node, browsers, workers), so timers, I/O and other
 * requests run between two turns, which a resolved promise or `queueMicrotask` would not
 * let them.
 */
function takeTurn() {
  waiting.shift()?.()
  // The work resumed asks again once its slice is done, in this task: another timer for
  // it then, unless others wait (their timer is set already).
  if (waiting.length > 0) nextTask(takeTurn)
  else pumping = false
}

/** How much sliced work waits for its turn now (tests). */
export function turnsWaiting(): number {
  return waiting.length
}

/**
 * Runs steps with a turn of their own between slices ({@link nextTurn}; `pause`: tests
 * count them).
 */
export async function runInSlices<Result>(
  steps: Steps<Result>,
  pause: () => Promise<void> = nextTurn,
): Promise<Result> {
  for (;;) {
    const step = steps.next()
    if (step.done) return step.value
    await pause()
  }
}

/**
 * Counts units of work inside steps: `if (meter.add(n)) yield meter.take()` yields once
 * a slice is full.
 */
export class SliceMeter {
  #units = 0
  constructor(readonly size = SLICE_UNITS) {}

  /** Counts `units`; true when the slice is full (the caller then yields `take()`). */
  add(units = 1): boolean {
    this.#units += units
    return this.#units >= this.size
  }

  /** The units of the slice that ends, and a new slice begins. */
  take(): number {
    const units = this.#units
    this.#units = 0
    return units
  }
}

/**
 * The texts of `items` (`write`), separated by commas (a JSON list's inside), in steps
 * that count `units` per item on `meter`: one piece per slice, its texts joined once
 * into a flat string (every piece but the first starts with its comma). An answer of
 * megabytes is then written piece by piece: built with `+=` item by item, it was a rope
 * of one string per item, which the write flattened and encoded at once (100 ms and
 * more for an export of 99,000 pets), and which kept the garbage collector busy.
 */
export function* joinInSlices<Item>(
  items: Iterable<Item>,
  write: (item: Item) => string,
  /** The units of one item, or of each (an entry of 8 KB costs more than one of 100 bytes). */
  units: number | ((item: Item) => number),
  meter: SliceMeter,
): Steps<string[]> {
  const pieces: string[] = []
  let texts: string[] = []
  let pending = false
  for (const item of items) {
    texts.push(write(item))
    pending = true
    if (meter.add(typeof units === 'number' ? units : units(item))) {
      pieces.push(texts.join(','))
      // The next piece's comma: '' and its first text join as ",text".
      texts = ['']
      pending = false
      yield meter.take()
    }
  }
  if (pending) pieces.push(texts.join(','))
  return pieces
}

/**
 * Whether `value` holds at most `max` values (itself, and every value of its objects and
 * arrays, at any depth): counted without recursion, stopping past `max`. A check of one
 * item (a pet, a journal entry, a scenario) is then bounded before a schema reads it:
 * zod gathers every issue of a value, and an item with a hundred thousand wrong fields
 * would overflow its stack.
 */
export function atMostValues(
  value: unknown,
  max: number,
  /** A value inside counted as one, not read (a list checked item by item). */
  skip?: unknown,
): boolean {
  const pending: unknown[] = [value]
  let count = 0
  while (pending.length > 0) {
    const next = pending.pop()
    if (++count > max) return false
    if (typeof next !== 'object' || next === null || next === skip) continue
    if (Array.isArray(next)) {
      if (count + pending.length + next.length > max) return false
      for (const item of next) pending.push(item)
    } else {
      for (const key in next) {
        if (++count > max) return false
        pending.push((next as Record<string, unknown>)[key])
      }
    }
  }
  return true
}
