import { SandboxError } from '../common/errors.js'

/** Options of the sandbox clock. */
export interface ClockOptions {
  /** Start at this instant instead of the real time (ISO string, Date or epoch ms). */
  now?: string | number | Date
  /** Stand still until advanced or set (tests); by default the clock follows real time. */
  frozen?: boolean
}

/** What `GET /__sandbox` and `POST /__sandbox/clock` report of the clock. */
export interface ClockState {
  now: string
  frozen: boolean
}

/**
 * The clock every time-dependent behaviour reads: rate-limit windows, bans, the sunset
 * of the deprecated endpoint. It runs with real time, shifted by however far it was set
 * or advanced, unless frozen.
 *
 * @example
 * sandbox.clock.advance(60) // the next minute window starts
 * sandbox.clock.set('2031-01-01T00:00:00Z') // getPet is past its sunset
 * @see docs/clock.md
 */
export interface Clock {
  /** The sandbox time in epoch milliseconds. */
  now(): number
  set(instant: string | number | Date): void
  advance(seconds: number): void
  freeze(instant?: string | number | Date): void
  unfreeze(): void
  /** Back to the options it was created with. */
  reset(): void
  state(): ClockState
}

/** The clock stays within 1970 and 9999: Unix-second headers and ISO dates of any instant. */
export const CLOCK_RANGE = { min: 0, max: Date.UTC(9999, 11, 31, 23, 59, 59, 999) }

function checkRange(ms: number, action: string, shown: string) {
  if (ms < CLOCK_RANGE.min || ms > CLOCK_RANGE.max) {
    throw SandboxError.for(
      'INVALID_CLOCK',
      action,
      `${shown} is outside the years 1970 to 9999 the clock supports`,
      'Use a date such as "2031-01-01T00:00:00Z", or advance by a number of seconds that stays within that range.',
    )
  }
  return ms
}

/**
 * An ISO 8601 date ("2031-01-01", "2031-01-01T10:00:00Z", "...+02:00") as epoch ms, or
 * NaN: what `Date.parse` takes beyond it is refused, since it guesses ("1" is 2001,
 * "2031-02-30" is 2 March, a time without Z or an offset is the machine's local time).
 */
export function parseIsoDate(text: string): number {
  const parts = ISO_DATE.exec(text)
  if (!parts) return Number.NaN
  const [year, month, day, hour = 0, minute = 0, second = 0] = parts
    .slice(1, 7)
    .map((part) => (part === undefined ? undefined : Number(part)))
  if (
    (month as number) < 1 ||
    (month as number) > 12 ||
    (day as number) < 1 ||
    (day as number) > daysIn(year as number, month as number) ||
    (hour as number) > 23 ||
    (minute as number) > 59 ||
    (second as number) > 59
  )
    return Number.NaN
  return Date.parse(text)
}

const ISO_DATE =
  /^(\d{4}|[+-]\d{6})-(\d{2})-(\d{2})(?:T(\d{2}):(\d{2})(?::(\d{2})(?:\.\d{1,9})?)?(?:Z|[+-]\d{2}:\d{2}))?$/

const daysIn = (year: number, month: number) =>
  new Date(Date.UTC(year, month, 0)).getUTCDate()

/** The rule a date breaks, for messages. */
export const ISO_DATE_RULE =
  'must be an ISO 8601 date such as "2031-01-01T00:00:00Z" (a time needs Z or an offset such as +02:00)'

/** Turns a user-supplied instant into epoch ms, or throws a SandboxError naming `field`. */
export function toEpochMs(instant: string | number | Date, field: string): number {
  const ms =
    instant instanceof Date
      ? instant.getTime()
      : typeof instant === 'number'
        ? instant
        : typeof instant === 'string'
          ? parseIsoDate(instant)
          : Number.NaN
  if (!Number.isFinite(ms)) {
    throw SandboxError.for(
      'INVALID_CLOCK',
      `set the clock from "${field}"`,
      `${JSON.stringify(instant)} is not a date`,
      'Use an ISO 8601 date such as "2031-01-01T00:00:00Z" (a time needs Z or an offset such as +02:00), or epoch milliseconds.',
    )
  }
  return checkRange(ms, `set the clock from "${field}"`, JSON.stringify(instant))
}

const realTime = () => Date.now()

/**
 * Creates a sandbox clock. `realNow` is injectable so the clock itself is testable.
 * Every session has one, so it is a class: its methods live once on the prototype, not as
 * seven closures per session.
 */
export function createClock(options: ClockOptions = {}, realNow = realTime): Clock {
  return new SandboxClock(
    options.now === undefined ? undefined : toEpochMs(options.now, 'clock.now'),
    options.frozen ?? false,
    realNow,
  )
}

class SandboxClock implements Clock {
  /** The instant of the options, if any: where `reset` goes back to. */
  readonly #start: number | undefined
  readonly #startsFrozen: boolean
  readonly #realNow: () => number
  #offset = 0
  #frozenAt: number | undefined

  constructor(start: number | undefined, startsFrozen: boolean, realNow: () => number) {
    this.#start = start
    this.#startsFrozen = startsFrozen
    this.#realNow = realNow
    this.reset()
  }

  // A running clock stops at the end of its range rather than run past it.
  now() {
    return this.#frozenAt ?? Math.min(this.#realNow() + this.#offset, CLOCK_RANGE.max)
  }

  set(instant: string | number | Date) {
    this.#moveTo(toEpochMs(instant, 'now'))
  }

  advance(seconds: number) {
    if (!Number.isFinite(seconds)) {
      throw SandboxError.for(
        'INVALID_CLOCK',
        'advance the clock by "advanceSeconds"',
        `${typeof seconds === 'number' ? String(seconds) : JSON.stringify(seconds)} is not a number of seconds`,
        'Pass a finite number such as 60.',
      )
    }
    const target = this.now() + seconds * 1000
    checkRange(
      target,
      'advance the clock by "advanceSeconds"',
      `${seconds} s from ${new Date(this.now()).toISOString()}`,
    )
    // From the time shown, not the offset: a clock stopped at the end goes back from there.
    this.#moveTo(target)
  }

  freeze(instant?: string | number | Date) {
    this.#frozenAt = instant === undefined ? this.now() : toEpochMs(instant, 'now')
  }

  unfreeze() {
    if (this.#frozenAt === undefined) return
    this.#offset = this.#frozenAt - this.#realNow()
    this.#frozenAt = undefined
  }

  reset() {
    this.#offset = this.#start === undefined ? 0 : this.#start - this.#realNow()
    this.#frozenAt = this.#startsFrozen ? (this.#start ?? this.#realNow()) : undefined
  }

  state(): ClockState {
    return {
      now: new Date(this.now()).toISOString(),
      frozen: this.#frozenAt !== undefined,
    }
  }

  #moveTo(target: number) {
    if (this.#frozenAt !== undefined) this.#frozenAt = target
    else this.#offset = target - this.#realNow()
  }
}

/** The second `isoTime` last wrote, and its text up to the milliseconds. */
let isoSecond = Number.NaN
let isoPrefix = ''

/**
 * `new Date(ms).toISOString()`, with the date and time to the second written once per
 * second: every request's journal entry has its time, and V8's `toISOString` costs more
 * than the rest of the entry.
 */
export function isoTime(ms: number): string {
  const whole = Math.floor(ms)
  const second = Math.floor(whole / 1000)
  if (second !== isoSecond) {
    // 'YYYY-MM-DDTHH:MM:SS.' (CLOCK_RANGE keeps the year to four digits); throws as
    // toISOString does for a time that is not one.
    const prefix = new Date(second * 1000).toISOString().slice(0, -4)
    isoSecond = second
    isoPrefix = prefix
  }
  const millis = whole - second * 1000
  return `${isoPrefix}${millis < 10 ? '00' : millis < 100 ? '0' : ''}${millis}Z`
}
