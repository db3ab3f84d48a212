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
 * Waits for the runtime's next task: timers, I/O and other requests run first. A
 * macrotask, in every runtime (Node, browsers, workers): a resolved promise or
 * `queueMicrotask` would run before any of them.
 */
export function nextTask(): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, 0))
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

/** Runs steps with the runtime's next task between slices (`pause`: tests count them). */
export async function runInSlices<Result>(
  steps: Steps<Result>,
  pause: () => Promise<void> = nextTask,
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
