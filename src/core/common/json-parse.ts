import { SliceMeter, type Steps } from './slices.js'

// JSON.parse in slices, for control bodies (docs/performance.md#neighbours). One
// JSON.parse cannot yield, and its time is not its size: 16 MiB of `{},{},…` took it
// 3.5 s on the bench machine, 8 MiB of `[[[[…` 4 s, during which a shared server
// answered nobody. This parser builds the same values (checked against JSON.parse in
// json-parse.test.ts), iteratively, yields after each slice, and refuses nesting deeper
// than MAX_JSON_DEPTH, which no body of the control API needs.

/** The deepest nesting of arrays and objects a control body may have. */
export const MAX_JSON_DEPTH = 64

/**
 * The most items of one list (or members of one object) a control body may have: more
 * than the pets of the largest export an import takes (16 MiB of the shortest pets, 37
 * bytes each, are 453,000). 16 MiB of `{},{},…` are 5.6 million: the list alone grew
 * by copies of megabytes, and the garbage collector then paused a server 200 ms at a time.
 */
export const MAX_JSON_ITEMS = 500_000

/** Why a text is not JSON the sandbox takes. */
export class JsonRefusal {
  constructor(
    /**
     * `syntax`: not JSON; `depth`: nested deeper than MAX_JSON_DEPTH; `items`: a list
     * or an object of more than MAX_JSON_ITEMS.
     */
    readonly reason: 'syntax' | 'depth' | 'items',
  ) {}
}

/** Characters per unit of work: scanning text is cheaper than making values. */
const CHARS_PER_UNIT = 64

const NUMBER = /-?(?:0|[1-9][0-9]*)(?:\.[0-9]+)?(?:[eE][+-]?[0-9]+)?/y
const ESCAPES: Record<string, string> = {
  '"': '"',
  '\\': '\\',
  '/': '/',
  b: '\b',
  f: '\f',
  n: '\n',
  r: '\r',
  t: '\t',
}

/** Bytes decoded per slice by {@link decodeSteps}: a slice's worth of characters. */
export const DECODE_BYTES = 256 * 1024

/**
 * The text of UTF-8 bytes as `new TextDecoder().decode` gives it (a BOM dropped, bad
 * bytes replaced), 256 KiB at a time, yielding between: 16 MiB at once took 90 ms of a
 * loaded server. A body of one slice is decoded at once.
 */
export function* decodeSteps(bytes: Uint8Array): Steps<string> {
  if (bytes.length <= DECODE_BYTES) return new TextDecoder().decode(bytes)
  const decoder = new TextDecoder()
  const pieces: string[] = []
  for (let start = 0; start < bytes.length; start += DECODE_BYTES) {
    const chunk = bytes.subarray(start, start + DECODE_BYTES)
    pieces.push(decoder.decode(chunk, { stream: true }))
    yield DECODE_BYTES / CHARS_PER_UNIT
  }
  pieces.push(decoder.decode())
  return pieces.join('')
}

/**
 * A container being filled: an array, or an object and the key its next value takes;
 * `items`, what it holds so far.
 */
type Open =
  | { array: unknown[]; items: number }
  | { object: Record<string, unknown>; key: string; items: number }

/** What {@link JsonScanner.value} gives when an array or object opened. */
const OPEN = Symbol('open')

/**
 * The text of a parse and where it is read: one call a token (a string, a number, a
 * literal, a key, the space between), its characters scanned in the call's own loop.
 */
class JsonScanner {
  /** Where the next token starts. */
  at = 0
  /** The refusal of a syntax error, one per parse. */
  readonly refused = new JsonRefusal('syntax')
  readonly stack: Open[] = []

  constructor(readonly text: string) {}

  /** Skips the whitespace at `at`. */
  space(): void {
    const { text } = this
    let at = this.at
    for (;;) {
      const code = text.charCodeAt(at)
      if (code === 32 || code === 10 || code === 13 || code === 9) at++
      else break
    }
    this.at = at
  }

  /** The string whose opening quote is at `at`; undefined when it is not one. */
  string(): string | undefined {
    const { text } = this
    let result = ''
    let at = this.at + 1
    let from = at
    for (;;) {
      const code = text.charCodeAt(at)
      if (code === 34) {
        result += text.slice(from, at)
        this.at = at + 1
        return result
      }
      if (code === 92) {
        result += text.slice(from, at)
        const escape = text[at + 1] ?? ''
        if (escape === 'u') {
          const hex = text.slice(at + 2, at + 6)
          if (!/^[0-9a-fA-F]{4}$/.test(hex)) return undefined
          result += String.fromCharCode(Number.parseInt(hex, 16))
          at += 6
        } else {
          const replaced = ESCAPES[escape]
          if (replaced === undefined) return undefined
          result += replaced
          at += 2
        }
        from = at
      } else if (code < 32 || Number.isNaN(code)) return undefined
      else at++
    }
  }

  /**
   * The value at `at`: a scalar, or {@link OPEN} when an array or object opened there
   * (pushed on the stack, and the space after it skipped), or a refusal.
   */
  value(): unknown {
    const { text, at } = this
    const code = text.charCodeAt(at)
    if (code === 123 || code === 91) {
      if (this.stack.length >= MAX_JSON_DEPTH) return new JsonRefusal('depth')
      this.at++
      this.space()
      if (code === 91) this.stack.push({ array: [], items: 0 })
      else this.stack.push({ object: {}, key: '', items: 0 })
      return OPEN
    }
    if (code === 34) return this.string() ?? this.refused
    if (code === 116) return this.literal('true', true)
    if (code === 102) return this.literal('false', false)
    if (code === 110) return this.literal('null', null)
    NUMBER.lastIndex = at
    const match = NUMBER.exec(text)
    if (match === null) return this.refused
    this.at = NUMBER.lastIndex
    return Number(match[0])
  }

  literal(word: string, value: unknown): unknown {
    if (!this.text.startsWith(word, this.at)) return this.refused
    this.at += word.length
    return value
  }

  /**
   * After `{` or `,`: in an array, the space before its next value; in an object, its
   * next member's key and colon too (false when they are not there).
   */
  member(open: Open): boolean {
    this.space()
    if ('object' in open) {
      if (this.text.charCodeAt(this.at) !== 34) return false
      const name = this.string()
      if (name === undefined) return false
      this.space()
      if (this.text.charCodeAt(this.at) !== 58) return false
      this.at++
      open.key = name
      this.space()
    }
    return true
  }

  /** Closes the innermost container, whose closing bracket is at `at`: its value. */
  close(): unknown {
    this.at++
    const open = this.stack.pop() as Open
    return 'array' in open ? open.array : open.object
  }
}

/** Puts a complete value in its container (`__proto__` as an own field, as JSON.parse). */
function putInto(open: Open, value: unknown): void {
  if ('array' in open) open.array.push(value)
  else if (open.key === '__proto__') {
    Object.defineProperty(open.object, '__proto__', {
      value,
      writable: true,
      enumerable: true,
      configurable: true,
    })
  } else open.object[open.key] = value
}

/**
 * Parses `text` as `JSON.parse` does (`__proto__` an own property, the last of
 * duplicate keys kept), in steps: it yields after each slice of work, and returns the
 * value or a {@link JsonRefusal}.
 */
export function* parseJsonSteps(text: string): Steps<unknown> {
  const meter = new SliceMeter()
  const scan = new JsonScanner(text)
  const { stack, refused } = scan
  let counted = 0
  scan.space()
  let current: unknown = scan.value()
  for (;;) {
    if (current instanceof JsonRefusal) return current
    // A value made, and the text read since the last one.
    const units = 1 + Math.floor((scan.at - counted) / CHARS_PER_UNIT)
    counted = scan.at
    if (meter.add(units)) yield meter.take()
    if (current === OPEN) {
      const open = stack.at(-1) as Open
      // An empty one closes at once; else its first member.
      if (text.charCodeAt(scan.at) === ('array' in open ? 93 : 125)) {
        current = scan.close()
        continue
      }
      if (!scan.member(open)) return refused
      current = scan.value()
      continue
    }
    // A value is complete: put it in its container, or it is the whole text.
    const open = stack.at(-1)
    if (open === undefined) {
      scan.space()
      return scan.at === text.length ? current : refused
    }
    if (++open.items > MAX_JSON_ITEMS) return new JsonRefusal('items')
    putInto(open, current)
    scan.space()
    const code = text.charCodeAt(scan.at)
    if (code === 44) {
      scan.at++
      if (!scan.member(open)) return refused
      current = scan.value()
    } else if (code === ('array' in open ? 93 : 125)) current = scan.close()
    else return refused
  }
}
