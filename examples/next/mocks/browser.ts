// The sandbox in the browser (client components): msw's setupWorker over a sandbox. It
// is a separate sandbox from the server's; the same seed gives both the same pets.
import { setupSandboxWorker } from 'petstore-sandbox/browser'

export const worker = setupSandboxWorker({ seed: 42 })

export function startWorker() {
  return worker.start({
    // Written by scripts/worker-script.js when the mocks are on (msw's own script).
    serviceWorker: { url: '/mockServiceWorker.js' },
    // Next's own requests (pages, chunks, /api) go to the network untouched.
    onUnhandledRequest: 'bypass',
    quiet: true,
  })
}
