import { expect, test } from 'vitest'
import { CLOCK_RANGE, createClock, isoTime, parseIsoDate } from './clock.js'

test('follows real time, shifted by set and advance', () => {
  let real = Date.parse('2027-01-01T00:00:00Z')
  const clock = createClock({}, () => real)
  real += 5_000
  expect(clock.now()).toBe(Date.parse('2027-01-01T00:00:05Z'))
  clock.advance(60)
  expect(clock.state()).toEqual({ now: '2027-01-01T00:01:05.000Z', frozen: false })
  clock.set('2031-01-01T00:00:00Z')
  real += 1_000
  expect(clock.state().now).toBe('2031-01-01T00:00:01.000Z')
})

test('freezes, advances while frozen, unfreezes where it stood, and resets to its options', () => {
  let real = 0
  const clock = createClock({ now: '2027-06-01T12:00:00Z', frozen: true }, () => real)
  real += 10_000
  expect(clock.state()).toEqual({ now: '2027-06-01T12:00:00.000Z', frozen: true })
  clock.advance(30)
  clock.unfreeze()
  real += 1_000
  expect(clock.state()).toEqual({ now: '2027-06-01T12:00:31.000Z', frozen: false })
  clock.reset()
  expect(clock.state()).toEqual({ now: '2027-06-01T12:00:00.000Z', frozen: true })
})

test('rejects what is not a date or a number of seconds', () => {
  const clock = createClock()
  expect(() => clock.set('soon')).toThrow(
    /Failed to set the clock from "now": "soon" is not a date\. Use an ISO 8601 date/,
  )
  expect(() => clock.advance(Number.NaN)).toThrow(/Failed to advance the clock/)
})

test('isoTime writes what toISOString writes, across seconds, days and the clock range', () => {
  const instants = [
    CLOCK_RANGE.min,
    CLOCK_RANGE.max,
    Date.UTC(2026, 11, 31, 23, 59, 59, 999),
    Date.UTC(2027, 0, 1),
    Date.UTC(2027, 0, 1, 0, 0, 0, 7),
    Date.UTC(2027, 0, 1, 0, 0, 0, 42),
    Date.UTC(2027, 0, 1, 0, 0, 0, 42) + 0.9,
  ]
  // Back and forth over the same seconds: the second it keeps is never stale.
  for (const ms of [...instants, ...instants.reverse()]) {
    expect(isoTime(ms)).toBe(new Date(ms).toISOString())
  }
  for (let ms = 1_795_000_000_000; ms < 1_795_000_003_000; ms += 37) {
    expect(isoTime(ms)).toBe(new Date(ms).toISOString())
  }
  expect(() => isoTime(Number.NaN)).toThrow(RangeError)
})

test('advancing by a number that is not one says which (NaN, Infinity), not null', () => {
  const clock = createClock({}, () => 0)
  expect(() => clock.advance(Number.NaN)).toThrow('NaN is not a number of seconds')
  expect(() => clock.advance(Infinity)).toThrow('Infinity is not a number of seconds')
})

test('parseIsoDate takes ISO 8601 dates only, where Date.parse guesses', () => {
  expect(parseIsoDate('2031-01-01')).toBe(Date.UTC(2031, 0, 1))
  expect(parseIsoDate('2031-01-01T10:00:00Z')).toBe(Date.UTC(2031, 0, 1, 10))
  expect(parseIsoDate('2031-01-01T10:00:00.250+02:00')).toBe(
    Date.UTC(2031, 0, 1, 8, 0, 0, 250),
  )
  expect(parseIsoDate('2032-02-29T00:00Z')).toBe(Date.UTC(2032, 1, 29))
  for (const guess of [
    '1',
    '12',
    'Friday 2030',
    '2031-02-30T00:00:00Z',
    '2031-13-01',
    '2031-01-01T24:00:00Z',
    '2031-01-01T10:00:00',
    ' 2031-01-01',
    '',
  ]) {
    expect(parseIsoDate(guess), guess).toBeNaN()
  }
})
