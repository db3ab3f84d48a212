import type { JournalEntry } from '../core/coach/journal.js'
import type { Report } from '../core/coach/report-card.js'
import { copy } from './inspector-curl.js'
import { addDownloads, type DownloadKind } from './inspector-download.js'
import { renderEntry } from './inspector-entry.js'
import { createReportView } from './inspector-report.js'
import { INSPECTOR_CSS } from './inspector-styles.js'

/** One poll's answer: `GET /__sandbox/requests?after=` (or a journal read in the page). */
export interface JournalPage {
  /** Newest first. */
  requests: JournalEntry[]
  /** The newest id the journal has seen; below the `after` asked: it started again. */
  lastId: number
}

/** Where the inspector reads a session's journal from. */
export interface InspectorSource {
  /** `session`: '' for the default one, a session id, or a session key. */
  read(session: string, after: number | undefined): Promise<JournalPage>
  /** The session's export or HAR; with it, the inspector offers to download them. */
  download?(session: string, kind: DownloadKind): Promise<unknown>
  /** The session's report card (`GET /__sandbox/report`); without it, no Report view. */
  report?(session: string): Promise<Report>
}

/** Options of {@link mountInspector}. */
export interface InspectorOptions {
  source: InspectorSource
  /** The origin the copied curl commands call (`http://127.0.0.1:4010`). */
  origin: string
  /** The session to show first ('' for the default one). */
  session?: string
  /** Milliseconds between polls; 1,000 by default. */
  intervalMs?: number
  /** A heading of this level opens the inspector (1 on its own page, 2 in a panel). */
  headingLevel?: 1 | 2
  /** A request id to open once it is shown (the page's `#request-<id>`). */
  focus?: number
}

/** A mounted inspector; `stop()` ends its polling. */
export interface InspectorHandle {
  stop(): void
  /** Reads at once instead of at the next tick (tests, "refresh"). */
  refresh(): Promise<void>
  /** Shows the session `session` and opens the request `id` in it. */
  show(id: number, session: string): void
}

/** The most entries the page keeps in view: the journal itself keeps journalSize. */
const MAX_SHOWN = 500

const FILTERS: Array<[string, string, (status: number) => boolean]> = [
  ['all', 'All', () => true],
  // A dropped request (docs/faults.md) has status 0: no answer, not a success.
  ['2xx', '2xx success', (status) => status >= 200 && status < 300],
  ['dropped', 'Dropped connections', (status) => status === 0],
  ['errors', 'Errors (4xx and 5xx)', (status) => status >= 400],
  ['4xx', '4xx client errors', (status) => status >= 400 && status < 500],
  ['429', '429 rate limited', (status) => status === 429],
  ['5xx', '5xx server errors', (status) => status >= 500],
]

/**
 * Renders the live request journal of a session into `root` and keeps it current by
 * polling `source`: newest first, each request with its outcome, the rate-limit state
 * after it, what to do about an error, and a curl to replay it.
 */
export function mountInspector(
  root: HTMLElement | ShadowRoot,
  options: InspectorOptions,
): InspectorHandle {
  const doc = root.ownerDocument ?? document
  const el = <K extends keyof HTMLElementTagNameMap>(
    tag: K,
    attrs: Record<string, string> = {},
    ...children: Array<Node | string>
  ) => {
    const node = doc.createElement(tag)
    for (const [name, value] of Object.entries(attrs)) node.setAttribute(name, value)
    node.append(...children)
    return node
  }
  addStyles(root, doc)

  const uid = Math.random().toString(36).slice(2, 8)
  const sessionInput = el('input', {
    id: `psi-session-${uid}`,
    name: 'session',
    type: 'text',
    autocomplete: 'off',
    spellcheck: 'false',
    placeholder: 'default',
    'aria-describedby': `psi-session-hint-${uid}`,
  })
  sessionInput.value = options.session ?? ''
  const filter = el('select', { id: `psi-filter-${uid}`, name: 'status' })
  for (const [value, label] of FILTERS) filter.append(el('option', { value }, label))
  const status = el('p', { class: 'psi-status-line', role: 'status' }, 'Connecting…')
  const list = el('ol', { class: 'psi-list', 'aria-label': 'Requests, newest first' })
  const empty = el(
    'p',
    { class: 'psi-empty' },
    'No requests in this session yet. Send one (the API reference at /docs/ has "Try it out") and it appears here.',
  )
  const form = el(
    'form',
    { class: 'psi-controls' },
    el(
      'div',
      { class: 'psi-field' },
      el('label', { for: sessionInput.id }, 'Session'),
      sessionInput,
      el(
        'span',
        { id: `psi-session-hint-${uid}`, class: 'psi-hint' },
        'Empty for the default one, a session id, or a session key (sandbox-free-key.alice).',
      ),
    ),
    el('button', { type: 'submit' }, 'Show session'),
    el('div', { class: 'psi-field' }, el('label', { for: filter.id }, 'Status'), filter),
  )
  const heading = el(
    options.headingLevel === 2 ? 'h2' : 'h1',
    { class: 'psi-title' },
    'Request inspector',
  )
  const reportView =
    options.source.report &&
    createReportView(el, uid, options.headingLevel === 2 ? 3 : 2, options.source.report, {
      open(id) {
        focus = id
        openFocused()
      },
      inShadow: root instanceof ShadowRoot,
    })
  root.append(
    el(
      'div',
      { class: 'psi' },
      el(
        'header',
        {},
        heading,
        el(
          'p',
          { class: 'psi-lead' },
          'The live request journal of one session: every /v1 request with its answer, the rate-limit state after it and, for an error, what to do. Newest first; it updates by itself.',
        ),
      ),
      form,
      ...(reportView ? [reportView.beside(status, list, empty)] : [status, list, empty]),
    ),
  )

  let session = sessionInput.value.trim()
  let lastId: number | undefined
  let timer: ReturnType<typeof setTimeout> | undefined
  let stopped = false
  let reading: Promise<void> | undefined
  let focus = options.focus
  /** A request asked for that no read showed: said in the status line until the next one. */
  let missing: number | undefined
  const shown = new Map<number, HTMLLIElement>()

  /** Opens the request asked for (`#request-<id>`) once a read has shown it. */
  const openFocused = () => {
    if (focus === undefined) return
    const item = shown.get(focus)
    missing = item ? undefined : focus
    focus = undefined
    if (!item) {
      describeState()
      return
    }
    for (const other of shown.values()) other.classList.remove('psi-focused')
    item.classList.add('psi-focused')
    item.hidden = false
    item.querySelector('details')?.setAttribute('open', '')
    item.scrollIntoView?.({ block: 'center' })
  }

  const applyFilter = () => {
    const test = (FILTERS.find(([value]) => value === filter.value) ?? FILTERS[0])![2]
    let visible = 0
    for (const item of shown.values()) {
      const show = test(Number(item.dataset.status))
      item.hidden = !show
      if (show) visible++
    }
    empty.hidden = visible > 0
    empty.textContent =
      shown.size === 0
        ? 'No requests in this session yet. Send one (the API reference at /docs/ has "Try it out") and it appears here.'
        : 'No request matches this filter.'
    return visible
  }

  const describeState = (note = '') => {
    const label = session === '' ? 'the default session' : `session ${session}`
    const gone =
      missing === undefined
        ? ''
        : `; request ${missing} is in no journal: it has left it (journalSize, a reset) or was a control request`
    status.textContent = `Live: ${label}, ${shown.size} request${shown.size === 1 ? '' : 's'}${gone}${note}`
  }

  const read = async () => {
    try {
      const page = await options.source.read(session, lastId)
      if (lastId !== undefined && page.lastId < lastId) {
        // The session's journal started again (it expired and was made anew).
        clear()
        lastId = undefined
        return read()
      }
      const fresh = page.requests.filter((entry) => !shown.has(entry.id)).reverse()
      for (const entry of fresh) {
        const item = renderEntry(entry, options.origin, el)
        shown.set(entry.id, item)
        list.prepend(item)
      }
      while (shown.size > MAX_SHOWN) {
        const oldest = shown.keys().next().value as number
        shown.get(oldest)?.remove()
        shown.delete(oldest)
      }
      lastId = page.lastId
      applyFilter()
      describeState()
      openFocused()
      status.classList.remove('psi-failed')
    } catch (error) {
      status.textContent = `Cannot read the journal: ${(error as Error).message}`
      status.classList.add('psi-failed')
    }
  }

  const tick = async () => {
    if (stopped) return
    reading = Promise.all([read(), reportView?.update(() => session)]).then(() => {})
    await reading
    if (!stopped) timer = setTimeout(tick, options.intervalMs ?? 1000)
  }

  const clear = () => {
    for (const item of shown.values()) item.remove()
    shown.clear()
  }

  const switchTo = (next: string) => {
    missing = undefined
    session = next
    sessionInput.value = next
    clear()
    lastId = undefined
    if (timer !== undefined) clearTimeout(timer)
    void tick()
  }
  form.addEventListener('submit', (event) => {
    event.preventDefault()
    switchTo(sessionInput.value.trim())
  })
  const { download } = options.source
  if (download)
    addDownloads(
      form,
      download.bind(options.source),
      () => session,
      status,
      describeState,
    )
  filter.addEventListener('change', () => {
    applyFilter()
  })
  list.addEventListener('click', (event) => {
    const button = (event.target as Element).closest?.('button[data-curl]')
    if (button) void copy(button as HTMLButtonElement, status)
  })

  void tick()
  return {
    stop() {
      stopped = true
      if (timer !== undefined) clearTimeout(timer)
    },
    async refresh() {
      await reading
      await Promise.all([read(), reportView?.update(() => session)])
    },
    show(id, next) {
      focus = id
      if (next !== session) switchTo(next)
      else openFocused()
    },
  }
}

function addStyles(root: HTMLElement | ShadowRoot, doc: Document) {
  const target = root instanceof ShadowRoot ? root : doc
  // A constructed sheet is no inline <style>: a page's CSP cannot refuse it.
  if ('adoptedStyleSheets' in target && typeof CSSStyleSheet === 'function') {
    try {
      const sheet = new CSSStyleSheet()
      sheet.replaceSync(INSPECTOR_CSS)
      target.adoptedStyleSheets = [...target.adoptedStyleSheets, sheet]
      return
    } catch {
      // Older engines: fall back to a <style> element.
    }
  }
  const style = doc.createElement('style')
  style.textContent = INSPECTOR_CSS
  ;(root instanceof ShadowRoot ? root : doc.head).append(style)
}
