/**
 * How the file store's messages tell the user to choose another file: the CLI names its
 * flag (`--persist`), code names `createFileStore()`. Everything else in a message is
 * the same for both.
 */
export type PathOption = '--persist' | 'createFileStore()'

/** "point --persist at another file" / "pass createFileStore() another file". */
export function useAnother(option: PathOption, what = 'another file') {
  return option === '--persist'
    ? `point --persist at ${what}`
    : `pass createFileStore() ${what}`
}

/** `text` as the start of a sentence. */
export function capitalized(text: string) {
  return `${text.slice(0, 1).toUpperCase()}${text.slice(1)}`
}

/** The option with this path: `--persist <path>` or `createFileStore('<path>')`. */
export function withPath(option: PathOption, path: string) {
  return option === '--persist'
    ? `--persist ${path}`
    : `createFileStore(${JSON.stringify(path)})`
}
