// npm start: builds only when dist/ is older than what the build reads
// (scripts/dist-stamp.js), then runs the CLI in this same process, as the bin does.
import { buildIfStale } from './dist-stamp.js'

const status = buildIfStale()
if (status !== 0) process.exit(status)
await import('../bin/petstore-sandbox.js')
