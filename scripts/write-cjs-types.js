// Writes a .d.cts twin of every declaration file in dist/ (the `require` conditions'
// "types" in package.json): the same declarations, with relative specifiers pointing at
// the twins, so TypeScript reads them as CommonJS for the CommonJS build. A copy rather
// than a second declaration build: the text is the same and the build stays fast.
import { readdirSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'

const dist = new URL('../dist/', import.meta.url).pathname

function* declarations(dir) {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name)
    if (entry.isDirectory()) yield* declarations(path)
    else if (entry.name.endsWith('.d.ts')) yield path
  }
}

let written = 0
for (const file of declarations(dist)) {
  const text = readFileSync(file, 'utf8').replace(
    /(from\s+|import\s+|import\()(['"])(\.{1,2}\/[^'"]+)\.js\2/g,
    '$1$2$3.cjs$2',
  )
  writeFileSync(file.replace(/\.d\.ts$/, '.d.cts'), text)
  written += 1
}
if (written === 0)
  throw new Error('write-cjs-types: no declarations in dist/; run tsup first.')
