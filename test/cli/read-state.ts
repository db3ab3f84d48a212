import { readFileSync } from 'node:fs'
import { parseStateFile } from '../../src/node/file-store/format.js'

/**
 * A `--persist` file as the next start reads it (the CLI's own parser), plus its raw
 * lines: the header, then a pet a line.
 */
export function readStateFile(file: string) {
  const text = readFileSync(file, 'utf8')
  const loaded = parseStateFile(text, file)
  const lines = text.split('\n')
  return {
    text,
    header: JSON.parse(lines[0] as string) as Record<string, unknown>,
    pets: loaded.state.pets,
    torn: loaded.torn,
    version: loaded.version,
  }
}
