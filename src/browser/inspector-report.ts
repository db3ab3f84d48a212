import type { Finding, FindingCode, Report } from '../core/coach/report-card.js'
import type { Make } from './inspector-entry.js'

// The inspector's Report view: the session's report card beside its journal, each
// finding linking to its example requests (`#request-<id>`, entries of the journal).

/** The Report view: its element, and how it is filled. */
export interface ReportView {
  readonly element: HTMLElement
  /** Reads the report of the session `session()` names, and shows it if still that one's. */
  update(session: () => string): Promise<void>
  /** The view and the journal's parts side by side (stacked on narrow screens). */
  beside(...journal: HTMLElement[]): HTMLElement
}

const NOUNS: Record<Finding['severity'], [string, string]> = {
  error: ['error', 'errors'],
  warning: ['warning', 'warnings'],
  info: ['info', 'info'],
}

/**
 * What each code of the card is about, in a few words: the title of its code in the view
 * (docs/report-card.md#what-each-code-means says more). Every code has one: a test holds
 * this list, the contract's table, docs/errors.md and the control OpenAPI document to
 * the same codes.
 */
export const FINDING_TITLES: Record<FindingCode, string> = {
  retry_before_retry_after: 'Sent again before Retry-After had passed',
  api_key_banned: 'The key was temporarily banned',
  endpoint_removed: 'Called a removed endpoint (410)',
  no_exponential_backoff: 'Retries whose waits did not grow',
  blind_retry: 'A dropped create sent again without looking first',
  deprecated_endpoint: 'Called a deprecated endpoint',
  invalid_request: 'Requests the API rejected (400)',
  authentication_failed: 'Requests without a valid key (401)',
  rate_limit_exceeded: 'Received 429s',
  duplicate_create: 'The same create twice within 10 s',
  unmodelled_endpoint: 'Called an endpoint whose shape is not published',
  connection_dropped: 'Connections your faults scenario dropped',
}

/** What the Report view asks of the journal beside it, to open a finding's request. */
export interface JournalLinks {
  /** Opens a request of the journal (or says it is no longer in it). */
  open(id: number): void
  /** The inspector is in a shadow root (the panel): the link must not move the app's address. */
  inShadow: boolean
}

/** Makes the Report view; `level` is its heading's (one below the inspector's). */
export function createReportView(
  el: Make,
  uid: string,
  level: 2 | 3,
  read: (session: string) => Promise<Report>,
  journal: JournalLinks,
): ReportView {
  const headingId = `psi-report-title-${uid}`
  const summary = el('p', { class: 'psi-report-summary' }, 'Reading the report card…')
  const list = el('ol', { class: 'psi-findings', 'aria-label': 'Findings, errors first' })
  const element = el(
    'section',
    { class: 'psi-report', 'aria-labelledby': headingId },
    el(
      level === 2 ? 'h2' : 'h3',
      { id: headingId, class: 'psi-report-title' },
      'Report card',
    ),
    el(
      'p',
      { class: 'psi-hint' },
      'What this client does that would hurt in production, from every request since the session started or was reset. Nothing above info means it behaves.',
    ),
    summary,
    list,
  )
  list.addEventListener('click', (event) => {
    const link = (event.target as Element).closest?.('a[data-request]')
    if (!link) return
    // On the page the address follows (#request-<id>, shareable); in the app's panel not.
    if (journal.inShadow) event.preventDefault()
    journal.open(Number(link.getAttribute('data-request')))
  })
  // Polled every second: the list is rebuilt only when the report changed, so a link
  // being focused or clicked stays.
  let last = ''
  const show = (report: Report) => {
    summary.classList.remove('psi-failed')
    summary.textContent = describe(report)
    const text = JSON.stringify(report.findings)
    if (text === last) return
    last = text
    list.replaceChildren(...report.findings.map((finding) => renderFinding(finding, el)))
  }
  return {
    element,
    // Read with every poll of the journal: a reset empties the card without adding to it.
    async update(session) {
      const asked = session()
      try {
        const report = await read(asked)
        if (asked === session()) show(report)
      } catch (error) {
        if (asked !== session()) return
        // Keep the last report shown; say why it is not current.
        summary.classList.add('psi-failed')
        summary.textContent = `Cannot read the report card: ${(error as Error).message}`
      }
    },
    beside: (...journal) =>
      el(
        'div',
        { class: 'psi-views' },
        element,
        el('div', { class: 'psi-journal' }, ...journal),
      ),
  }
}

function describe(report: Report): string {
  const since = report.since.replace('T', ' ').slice(0, 19)
  const counts = (['error', 'warning', 'info'] as const)
    .map((severity) => {
      const count = report.findings.filter((f) => f.severity === severity).length
      const [one, many] = NOUNS[severity]
      return count === 0 ? '' : `${count} ${count === 1 ? one : many}`
    })
    .filter(Boolean)
  const problems = report.findings.some((finding) => finding.severity !== 'info')
  const verdict =
    counts.length === 0
      ? 'nothing to fix.'
      : `${counts.join(', ')}${problems ? '.' : ': nothing to fix.'}`
  const frozen = report.clockFrozen
    ? ' The clock is frozen: backoff and duplicate creates are not graded.'
    : ''
  return `${report.requests} request${report.requests === 1 ? '' : 's'} since ${since} (sandbox clock): ${verdict}${frozen}`
}

function renderFinding(finding: Finding, el: Make): HTMLLIElement {
  const links = finding.requestIds.flatMap((id, index) => [
    ...(index === 0 ? [] : [', ']),
    el('a', { href: `#request-${id}`, 'data-request': String(id) }, `#${id}`),
  ])
  return el(
    'li',
    { class: `psi-finding psi-sev-${finding.severity}`, 'data-code': finding.code },
    el(
      'div',
      { class: 'psi-line' },
      el('span', { class: 'psi-severity' }, finding.severity),
      el('code', { title: FINDING_TITLES[finding.code] }, finding.code),
      el(
        'span',
        { class: 'psi-count' },
        `${finding.count} request${finding.count === 1 ? '' : 's'}`,
      ),
    ),
    el('p', {}, finding.message),
    el('p', {}, el('strong', {}, 'Fix: '), finding.fix),
    el(
      'p',
      { class: 'psi-examples' },
      finding.requestIds.length === 1 ? 'Request: ' : 'Latest requests: ',
      ...links,
    ),
  )
}
