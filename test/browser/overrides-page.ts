// The page of test/browser/overrides.test.ts: the sandbox in msw's service worker with the
// same override file the Node, Express and CLI tests use.
import { setupSandboxWorker } from 'petstore-sandbox/browser'
import overrides from '../overrides/overrides.js'

const worker = setupSandboxWorker({ seed: 42, handlers: overrides })
await worker.start({ quiet: true, serviceWorker: { url: '/mockServiceWorker.js' } })
Object.assign(window, { sandbox: worker.sandbox })
document.body.dataset.ready = 'true'
