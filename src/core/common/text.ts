/** A text cut to `max` characters, marked with `…` when cut: for quoting input in messages. */
export function truncate(text: string, max = 40): string {
  return text.length > max ? `${text.slice(0, max)}…` : text
}

/**
 * An integer with commas between groups of three digits, as `toLocaleString('en-US')`
 * writes it, without loading ICU's locale data: the first `toLocaleString` of a process
 * costs about 11 ms, paid at start-up by the messages built when modules load.
 */
export function thousands(value: number): string {
  const digits = String(Math.abs(Math.trunc(value)))
  let grouped = digits.slice(0, ((digits.length - 1) % 3) + 1)
  for (let at = grouped.length; at < digits.length; at += 3)
    grouped += `,${digits.slice(at, at + 3)}`
  return value < 0 && grouped !== '0' ? `-${grouped}` : grouped
}
