/**
 * Counting and cutting texts by the bytes they take: in UTF-8 (their length in JSON) and
 * in a JavaScript engine's memory. The journal's budget, the pet store's running count
 * and the HAR's size estimate all count with these.
 */

/** A character outside Latin-1: a text with one is held as UTF-16. */
const WIDE = /[\u0100-\uffff]/

/**
 * What a text counts against the budget: the larger of its UTF-8 bytes (its length in
 * the JSON) and the bytes a JavaScript engine holds it in, one a character for Latin-1
 * text and two for any other. A path of 2 KiB cut with `…` is 2 KiB of UTF-8 but 4 KiB
 * in memory (V8, JavaScriptCore and SpiderMonkey all store it as UTF-16): counted at its
 * UTF-8 length, a flood of such paths held twice the budget.
 */
export function textBytes(text: string): number {
  const utf8 = utf8Length(text)
  if (utf8 === text.length) return utf8 // ASCII
  return WIDE.test(text) ? Math.max(utf8, 2 * text.length) : utf8
}

const encoder = new TextEncoder()
/** Room for the UTF-8 of the longest text `encodeInto` is asked to count. */
const scratch = new Uint8Array(3 * 8192)

/** The UTF-8 length of a text (a lone surrogate counts 3 bytes, as it is encoded). */
export function utf8Length(text: string): number {
  const length = text.length
  // Native encoding is faster for long texts (a body), a loop for short ones.
  if (length > 64 && length * 3 <= scratch.length) {
    return encoder.encodeInto(text, scratch).written
  }
  let bytes = length
  for (let index = 0; index < length; index++) {
    const code = text.charCodeAt(index)
    if (code < 0x80) continue
    if (code < 0x800) bytes += 1
    else if (code >= 0xd800 && code < 0xdc00 && isLowSurrogate(text, index + 1)) {
      // A pair is two UTF-16 units and four bytes.
      bytes += 2
      index++
    } else bytes += 2
  }
  return bytes
}

export function isLowSurrogate(text: string, index: number) {
  const code = text.charCodeAt(index)
  return code >= 0xdc00 && code < 0xe000
}

/**
 * The first `end` characters of `text` and "…", as a string of its own. A slice of a
 * string may keep the whole of it alive (V8 makes a view of the parent): a journal that
 * keeps 2 KiB of a 14 KiB URL would hold all 14 KiB, beyond what its budget counts.
 * Copied through JSON, which always makes a new string; only cut texts pay for it.
 */
export function detachedCut(text: string, end: number): string {
  return JSON.parse(JSON.stringify(`${text.slice(0, end)}…`)) as string
}
