/** A text cut to `max` characters, marked with `…` when cut: for quoting input in messages. */
export function truncate(text: string, max = 40): string {
  return text.length > max ? `${text.slice(0, max)}…` : text
}
