import type { Latency } from '../core/scenarios.js'

/** The flags of the server command, parsed and checked. */
export interface ServeFlags {
  port: number
  host: string
  seed?: number
  count?: number
  scenario?: string
  fixtures?: string
  latency?: Latency
  persist?: string
  watch: boolean
  quiet: boolean
  logFormat: LogFormat
}

export type LogFormat = 'pretty' | 'json'

/** Every option of the CLI, for "did you mean" on a misspelt one. */
export const OPTION_NAMES = [
  'port',
  'host',
  'seed',
  'count',
  'scenario',
  'fixtures',
  'latency',
  'persist',
  'watch',
  'quiet',
  'log-format',
  'help',
  'version',
]

// The checks below throw plain messages; yargs hands them to the one-line failure output.

export function parsePort(value: unknown): number {
  const port = integer(value)
  if (port === undefined || port < 0 || port > 65535) {
    throw new Error(
      `--port must be a port number from 0 to 65535 (0 picks a free one), got ${show(value)}`,
    )
  }
  return port
}

export function parseSeed(value: unknown): number | undefined {
  if (value === undefined) return undefined
  const seed = integer(value)
  if (seed === undefined)
    throw new Error(`--seed must be an integer such as 42, got ${show(value)}`)
  return seed
}

export function parseCount(value: unknown): number | undefined {
  if (value === undefined) return undefined
  const count = integer(value)
  if (count === undefined || count < 0 || count > 1_000_000) {
    throw new Error(
      `--count must be a number of pets from 0 to 1000000, got ${show(value)}`,
    )
  }
  return count
}

export function parseLatency(value: unknown): Latency | undefined {
  if (value === undefined) return undefined
  const fail = () =>
    new Error(
      `--latency must be milliseconds (250) or a range (100-500), each 0 to 60000, got ${show(value)}`,
    )
  const match = /^(\d+)(?:-(\d+))?$/.exec(single(value) ?? '')
  if (!match) throw fail()
  const minMs = Number(match[1])
  const maxMs = match[2] === undefined ? minMs : Number(match[2])
  if (maxMs > 60_000 || minMs > maxMs) throw fail()
  return match[2] === undefined ? minMs : { minMs, maxMs }
}

export function parseLogFormat(value: unknown): LogFormat {
  if (value === 'pretty' || value === 'json') return value
  throw new Error(`--log-format must be pretty or json, got ${show(value)}`)
}

export function parseText(flag: string, example: string) {
  return (value: unknown): string | undefined => {
    if (value === undefined) return undefined
    const text = single(value)
    if (text === undefined || text.trim() === '') {
      throw new Error(`--${flag} needs a value, e.g. --${flag} ${example}`)
    }
    return text
  }
}

/** The closest option name to a misspelt one, when it is close enough to be meant. */
export function suggestOption(unknown: string): string | undefined {
  const name = unknown.replace(/^-+/, '').split('=')[0] ?? ''
  let best: { name: string; distance: number } | undefined
  for (const option of OPTION_NAMES) {
    const distance = editDistance(name.toLowerCase(), option)
    if (!best || distance < best.distance) best = { name: option, distance }
  }
  return best && best.distance <= (name.length <= 3 ? 1 : 2) ? best.name : undefined
}

function integer(value: unknown): number | undefined {
  const text = single(value)
  if (text === undefined || !/^-?\d+$/.test(text.trim())) return undefined
  const number = Number(text)
  return Number.isSafeInteger(number) ? number : undefined
}

/** The flag's value as text; a flag given twice is refused rather than guessed. */
function single(value: unknown): string | undefined {
  if (Array.isArray(value))
    throw new Error(
      `a flag was given twice (${value.map(String).join(', ')}); give it once`,
    )
  if (typeof value === 'number') return String(value)
  return typeof value === 'string' ? value : undefined
}

function show(value: unknown) {
  return value === undefined || value === '' ? 'nothing' : JSON.stringify(value)
}

/** Edits (insert, delete, replace, swap two neighbours) from one word to the other. */
function editDistance(left: string, right: string): number {
  const rows = Array.from({ length: left.length + 1 }, (_, i) =>
    Array.from({ length: right.length + 1 }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)),
  )
  const at = (i: number, j: number) => rows[i]?.[j] as number
  for (let i = 1; i <= left.length; i++) {
    for (let j = 1; j <= right.length; j++) {
      const cost = left[i - 1] === right[j - 1] ? 0 : 1
      let best = Math.min(at(i - 1, j) + 1, at(i, j - 1) + 1, at(i - 1, j - 1) + cost)
      if (
        i > 1 &&
        j > 1 &&
        left[i - 1] === right[j - 2] &&
        left[i - 2] === right[j - 1]
      ) {
        best = Math.min(best, at(i - 2, j - 2) + 1)
      }
      ;(rows[i] as number[])[j] = best
    }
  }
  return at(left.length, right.length)
}
