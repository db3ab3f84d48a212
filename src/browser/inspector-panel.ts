import type { Sandbox } from '../core/world/sandbox-types.js'
import { sessionIdOf } from './inspector-download.js'
import { mountInspector, type InspectorSource } from './inspector-view.js'

// The entry `petstore-sandbox/browser/inspector`: a devtool of its own import, so an app
// that never opens it does not carry it (7.8 KB gzipped beside the browser entry's 107.0).

/** Options of `openInspector()`. */
export interface InspectorPanelOptions {
  /** The session to show first: '' (default), a session id or a session key. */
  session?: string
  /** Where the panel goes; `document.body` by default. */
  container?: HTMLElement
}

/** An open inspector panel. */
export interface InspectorPanel {
  /** The panel's host element (its content is in a shadow root, apart from the app's styles). */
  readonly element: HTMLElement
  close(): void
}

/**
 * Opens the request inspector as a panel over the page: the live journal, report card and
 * downloads of a session of the worker's sandbox, as `/inspector/` shows them on the
 * standalone server. It reads the sandbox in the page, so it sends no request of its own.
 *
 * @example
 * const { openInspector } = await import('petstore-sandbox/browser/inspector')
 * openInspector(worker, { session: 'alice' })
 * @see docs/server.md#the-request-inspector-inspector
 */
export function openInspector(
  worker: { readonly sandbox: Sandbox },
  options: InspectorPanelOptions = {},
): InspectorPanel {
  const { sandbox } = worker
  // A session key (sandbox-free-key.alice) names the session after its last dot.
  const worldOf = (session: string) => {
    const id = sessionIdOf(session)
    return id === '' ? sandbox : sandbox.session(id)
  }
  const source: InspectorSource = {
    async read(session, after) {
      const world = worldOf(session)
      return { requests: world.journal.recent(200, after), lastId: world.journal.lastId }
    },
    download(session, kind) {
      const id = sessionIdOf(session) || undefined
      return kind === 'har'
        ? Promise.resolve(sandbox.exportHar(id, location.origin))
        : sandbox.exportSession(id)
    },
    report: async (session) => worldOf(session).report(),
  }
  const host = document.createElement('aside')
  host.setAttribute('aria-label', 'Request inspector (petstore-sandbox)')
  host.dataset.petstoreInspector = ''
  Object.assign(host.style, {
    position: 'fixed',
    top: '0',
    right: '0',
    bottom: '0',
    width: 'min(42rem, 100vw)',
    zIndex: '2147483000',
    overflowY: 'auto',
    background: '#fff',
    boxShadow: '-4px 0 16px rgba(0, 0, 0, 0.25)',
    padding: '1rem',
  })
  const shadow = host.attachShadow({ mode: 'open' })
  const close = document.createElement('button')
  close.type = 'button'
  close.textContent = 'Close the inspector'
  Object.assign(close.style, { float: 'right', font: 'inherit', cursor: 'pointer' })
  shadow.append(close)
  const handle = mountInspector(shadow, {
    source,
    origin: location.origin,
    session: options.session ?? '',
    intervalMs: 500,
    headingLevel: 2,
  })
  const panel: InspectorPanel = {
    element: host,
    close() {
      handle.stop()
      host.remove()
    },
  }
  close.addEventListener('click', () => panel.close())
  ;(options.container ?? document.body).append(host)
  close.focus()
  return panel
}
