import { apiOrigin } from './api-origin.js'
import { startApp } from './app.js'

type Mode = 'worker' | 'server'

const params = new URLSearchParams(location.search)
// Where the API is: this page's origin unless ?api=http://127.0.0.1:4010 points elsewhere.
const api = apiOrigin(params.get('api'))
const origin = api.origin

async function resolveMode(): Promise<Mode> {
  const asked = params.get('mode')
  if (asked === 'worker' || asked === 'server') return asked
  // No ?mode: a standalone sandbox answers its control API here, a plain static server does not.
  try {
    const response = await fetch(`${origin}/__sandbox`, {
      headers: { accept: 'application/json' },
    })
    if (response.ok && (response.headers.get('content-type') ?? '').includes('json'))
      return 'server'
  } catch {
    // Unreachable: fall through to the worker.
  }
  return 'worker'
}

/** What the header's inspector control opens: a panel over this page, or the server's page. */
let openInspector: (() => Promise<void>) | undefined

async function startWorker(): Promise<string> {
  // Loaded only in worker mode, so server mode never downloads the sandbox.
  const { setupSandboxWorker } = await import('petstore-sandbox/browser')
  const seed = params.has('seed') ? Number(params.get('seed')) : 42
  const scenario = params.get('scenario') ?? undefined
  const worker = setupSandboxWorker({ seed, ...(scenario ? { scenario } : {}) })
  // Only msw's serviceWorker option is needed: every request this page makes after start
  // is handled, and msw already stays quiet about scripts and styles. An app with other
  // traffic adds onUnhandledRequest: 'bypass' (msw 3: onUnhandledFrame).
  await worker.start({
    serviceWorker: { url: './mockServiceWorker.js' },
    quiet: params.has('quiet'),
  })
  // The inspector is a devtool of its own entry, loaded on the first click only.
  openInspector = async () => {
    const inspector = await import('petstore-sandbox/browser/inspector')
    inspector.openInspector(worker)
  }
  return 'Service worker'
}

async function main() {
  if (api.refused) showApiNote(api.refused)
  const mode = await resolveMode()
  document.body.dataset.mode = mode
  const runtime = mode === 'worker' ? await startWorker() : 'Standalone server'
  await startApp({ origin, runtime })
  addInspectorControl()
  document.body.dataset.ready = 'true'
}

/** The request inspector: every request of this page, with what to do about its errors. */
function addInspectorControl() {
  const header = document.querySelector('header.top')
  if (!header) return
  if (openInspector) {
    const button = document.createElement('button')
    button.type = 'button'
    button.id = 'open-inspector'
    button.className = 'inspector-link'
    button.textContent = 'Request inspector'
    button.addEventListener('click', () => void openInspector?.())
    header.append(button)
    return
  }
  const link = document.createElement('a')
  link.id = 'open-inspector'
  link.className = 'inspector-link'
  // Always an http(s) URL: the origin is one (api-origin.ts) or this page's own.
  link.href = new URL('/inspector/', origin || location.origin).href
  link.textContent = 'Request inspector'
  header.append(link)
}

/** Says on the page why ?api= was not taken (a link may have been made to abuse it). */
function showApiNote(text: string) {
  const note = document.getElementById('api-note')
  if (!note) return
  note.textContent = text
  note.classList.remove('hidden')
}

main().catch((error: unknown) => {
  const runtime = document.getElementById('runtime')
  if (runtime) {
    runtime.textContent = `Failed to start: ${(error as Error).message}`
    runtime.classList.add('failed')
  }
  document.body.dataset.ready = 'failed'
  console.error(error)
})
