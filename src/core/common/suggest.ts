/**
 * The candidate a mistyped word most likely meant, or undefined when none is close
 * enough: the nearest within one edit for words up to 3 letters and two edits beyond
 * (a swap of two neighbours counts as one edit: `prot` is one from `port`), else the only
 * candidate that starts with the word (`expired` for `expired-key`).
 *
 * yargs suggests only commands (`recommendCommands`, and not beside a default command),
 * never options, so the CLI has its own; createSandbox suggests its option names with it.
 */
export function closest(word: string, candidates: readonly string[]): string | undefined {
  const typed = word.toLowerCase()
  let best: { name: string; distance: number } | undefined
  for (const name of candidates) {
    const distance = editDistance(typed, name.toLowerCase())
    if (!best || distance < best.distance) best = { name, distance }
  }
  if (best && best.distance <= (typed.length <= 3 ? 1 : 2)) return best.name
  const extended = candidates.filter((name) => name.toLowerCase().startsWith(typed))
  return typed.length >= 3 && extended.length === 1 ? extended[0] : undefined
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
