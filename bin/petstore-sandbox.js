#!/usr/bin/env node
// The npx entry: only loads the built CLI and runs it (src/cli has the code).
import { main } from '../dist/cli/index.js'

await main(process.argv.slice(2))
