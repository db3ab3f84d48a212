import type { JournalEntry } from '../core/coach/journal.js'
import type { Report } from '../core/coach/report-card.js'
import { copy } from './inspector-curl.js'
import { addDownloads, type DownloadKind } from './inspector-download.js'
import { renderEntry, type Make } from './inspector-entry.js'
import { createReportView, type ReportView } from './inspector-report.js'
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
  const el = elementFactory(doc)
  addStyles(root, doc)
  const uid = Math.random().toString(36).slice(2, 8)
  const parts = buildControls(el, uid, options)
  const live = new LiveJournal(parts, options, el)
  const reportView =
    options.source.report &&
    createReportView(el, uid, options.headingLevel === 2 ? 3 : 2, options.source.report, {
      open: (id) => live.open(id),
      inShadow: root instanceof ShadowRoot,
    })
  live.reportView = reportView || undefined
  const { status, list, empty } = parts
  root.append(
    el(
      'div',
      { class: 'psi' },
      el(
        'header',
        {},
        parts.heading,
        el(
          'p',
          { class: 'psi-lead' },
          'The live request journal of one session: every /v1 request with its answer, the rate-limit state after it and, for an error, what to do. Newest first; it updates by itself.',
        ),
      ),
      parts.form,
      ...(reportView ? [reportView.beside(status, list, empty)] : [status, list, empty]),
    ),
  )
  listen(live, options.source)
  void live.tick()
  return {
    stop: () => live.stop(),
    refresh: () => live.refresh(),
    show: (id, next) => live.show(id, next),
  }
}

/** The inspector's element factory over `doc`. */
function elementFactory(doc: Document): Make {
  return (tag, attrs = {}, ...children) => {
    const node = doc.createElement(tag)
    for (const [name, value] of Object.entries(attrs)) node.setAttribute(name, value)
    node.append(...children)
    return node
  }
}

/** The inspector's fixed elements: the session form and its status filter, the list. */
interface Controls {
  sessionInput: HTMLInputElement
  filter: HTMLSelectElement
  status: HTMLParagraphElement
  list: HTMLOListElement
  empty: HTMLParagraphElement
  form: HTMLFormElement
  /** The line under the controls: the session field's hint, then the downloads. */
  notes: HTMLDivElement
  heading: HTMLHeadingElement
}

const NO_REQUESTS_YET =
  'No requests in this session yet. Send one (the API reference at /docs/ has "Try it out") and it appears here.'

function buildControls(el: Make, uid: string, options: InspectorOptions): Controls {
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
  const empty = el('p', { class: 'psi-empty' }, NO_REQUESTS_YET)
  // The hint is on the line below the row, not in the session field: in the field it
  // made the field taller than its neighbours, and the row put the Status filter lower.
  const notes = el(
    'div',
    { class: 'psi-notes' },
    el(
      'span',
      { id: `psi-session-hint-${uid}`, class: 'psi-hint' },
      'Empty for the default one, a session id, or a session key (sandbox-free-key.alice).',
    ),
  )
  const form = el(
    'form',
    { class: 'psi-controls' },
    el(
      'div',
      { class: 'psi-row' },
      el(
        'div',
        { class: 'psi-field' },
        el('label', { for: sessionInput.id }, 'Session'),
        sessionInput,
      ),
      el('button', { type: 'submit' }, 'Show session'),
      el(
        'div',
        { class: 'psi-field' },
        el('label', { for: filter.id }, 'Status'),
        filter,
      ),
    ),
    notes,
  )
  const heading = el(
    options.headingLevel === 2 ? 'h2' : 'h1',
    { class: 'psi-title' },
    'Request inspector',
  )
  return { sessionInput, filter, status, list, empty, form, notes, heading }
}

/** The controls' events: a session asked for, a filter chosen, a curl copied, downloads. */
function listen(live: LiveJournal, source: InspectorSource): void {
  const { form, sessionInput, filter, list, status } = live.parts
  form.addEventListener('submit', (event) => {
    event.preventDefault()
    live.switchTo(sessionInput.value.trim())
  })
  const { download } = source
  if (download)
    addDownloads(
      live.parts.notes,
      download.bind(source),
      () => live.session,
      status,
      (note) => live.describeState(note),
    )
  filter.addEventListener('change', () => {
    live.applyFilter()
  })
  list.addEventListener('click', (event) => {
    const button = (event.target as Element).closest?.('button[data-curl]')
    if (button) void copy(button as HTMLButtonElement, status)
  })
}

/** The shown session's journal as the page keeps it, polled until stopped. */
class LiveJournal {
  /** The session shown: '' for the default one, a session id or a session key. */
  session: string
  reportView: ReportView | undefined
  #lastId: number | undefined
  #timer: ReturnType<typeof setTimeout> | undefined
  #stopped = false
  #reading: Promise<void> | undefined
  #focus: number | undefined
  /** A request asked for that no read showed: said in the status line until the next one. */
  #missing: number | undefined
  readonly #shown = new Map<number, HTMLLIElement>()

  constructor(
    readonly parts: Controls,
    private readonly options: InspectorOptions,
    private readonly el: Make,
  ) {
    this.session = parts.sessionInput.value.trim()
    this.#focus = options.focus
  }

  /** Opens the request `id` in the shown session (a report card's link). */
  open(id: number): void {
    this.#focus = id
    this.#openFocused()
  }

  /** Opens the request asked for (`#request-<id>`) once a read has shown it. */
  #openFocused(): void {
    if (this.#focus === undefined) return
    const item = this.#shown.get(this.#focus)
    this.#missing = item ? undefined : this.#focus
    this.#focus = undefined
    if (!item) {
      this.describeState()
      return
    }
    for (const other of this.#shown.values()) other.classList.remove('psi-focused')
    item.classList.add('psi-focused')
    item.hidden = false
    item.querySelector('details')?.setAttribute('open', '')
    item.scrollIntoView?.({ block: 'center' })
  }

  applyFilter(): number {
    const { filter, empty } = this.parts
    const test = (FILTERS.find(([value]) => value === filter.value) ?? FILTERS[0])![2]
    let visible = 0
    for (const item of this.#shown.values()) {
      const show = test(Number(item.dataset.status))
      item.hidden = !show
      if (show) visible++
    }
    empty.hidden = visible > 0
    empty.textContent =
      this.#shown.size === 0 ? NO_REQUESTS_YET : 'No request matches this filter.'
    return visible
  }

  describeState(note = ''): void {
    const label = this.session === '' ? 'the default session' : `session ${this.session}`
    const gone =
      this.#missing === undefined
        ? ''
        : `; request ${this.#missing} is in no journal: it has left it (journalSize, a reset) or was a control request`
    const count = this.#shown.size
    this.parts.status.textContent = `Live: ${label}, ${count} request${count === 1 ? '' : 's'}${gone}${note}`
  }

  async #read(): Promise<void> {
    const { status, list } = this.parts
    try {
      const page = await this.options.source.read(this.session, this.#lastId)
      if (this.#lastId !== undefined && page.lastId < this.#lastId) {
        // The session's journal started again (it expired and was made anew).
        this.#clear()
        this.#lastId = undefined
        return this.#read()
      }
      const fresh = page.requests.filter((entry) => !this.#shown.has(entry.id)).reverse()
      for (const entry of fresh) {
        const item = renderEntry(entry, this.options.origin, this.el)
        this.#shown.set(entry.id, item)
        list.prepend(item)
      }
      while (this.#shown.size > MAX_SHOWN) {
        const oldest = this.#shown.keys().next().value as number
        this.#shown.get(oldest)?.remove()
        this.#shown.delete(oldest)
      }
      this.#lastId = page.lastId
      this.applyFilter()
      this.describeState()
      this.#openFocused()
      status.classList.remove('psi-failed')
    } catch (error) {
      status.textContent = `Cannot read the journal: ${(error as Error).message}`
      status.classList.add('psi-failed')
    }
  }

  async tick(): Promise<void> {
    if (this.#stopped) return
    this.#reading = Promise.all([
      this.#read(),
      this.reportView?.update(() => this.session),
    ]).then(() => {})
    await this.#reading
    if (!this.#stopped)
      this.#timer = setTimeout(() => this.tick(), this.options.intervalMs ?? 1000)
  }

  #clear(): void {
    for (const item of this.#shown.values()) item.remove()
    this.#shown.clear()
  }

  switchTo(next: string): void {
    this.#missing = undefined
    this.session = next
    this.parts.sessionInput.value = next
    this.#clear()
    this.#lastId = undefined
    if (this.#timer !== undefined) clearTimeout(this.#timer)
    void this.tick()
  }

  stop(): void {
    this.#stopped = true
    if (this.#timer !== undefined) clearTimeout(this.#timer)
  }

  async refresh(): Promise<void> {
    await this.#reading
    await Promise.all([this.#read(), this.reportView?.update(() => this.session)])
  }

  /** Shows the session `next` and opens the request `id` in it. */
  show(id: number, next: string): void {
    this.#focus = id
    if (next !== this.session) this.switchTo(next)
    else this.#openFocused()
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
