// npm start: builds only when dist/ is older than what the build reads
// (scripts/dist-stamp.js), then runs the CLI in this same process, as the bin does.
import { spawnSync } from 'node:child_process'
import { staleReason } from './dist-stamp.js'

const reason = staleReason()
if (reason) {
  process.stderr.write(`Building (${reason})...\n`)
  const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm'
  const build = spawnSync(npm, ['run', 'build', '--silent'], { stdio: 'inherit' })
  if (build.status !== 0) process.exit(build.status ?? 1)
}
await import('../bin/petstore-sandbox.js')
