// public/mockServiceWorker.js exists only when the mocks are on: `npm run dev` writes
// msw's worker script there (NEXT_PUBLIC_API_MOCKING=enabled in .env.development), and
// `npm run build` removes it unless the variable is set for the build, so a production
// build serves no worker script. Next's own loader reads the .env files, as next does.
import { copyFileSync, mkdirSync, rmSync } from 'node:fs'
import { createRequire } from 'node:module'
import nextEnv from '@next/env'

const dev = process.argv[2] === 'dev'
nextEnv.loadEnvConfig(process.cwd(), dev, { info() {}, error: console.error })
const target = 'public/mockServiceWorker.js'
if (process.env.NEXT_PUBLIC_API_MOCKING === 'enabled') {
  // The script of the installed msw, so it matches its major (what `msw init` copies).
  mkdirSync('public', { recursive: true })
  copyFileSync(createRequire(import.meta.url).resolve('msw/mockServiceWorker.js'), target)
  console.log(`Mocking on: wrote ${target} (msw's worker script).`)
} else {
  rmSync(target, { force: true })
}
