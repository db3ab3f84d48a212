import type { JournalEntry } from '../core/coach/journal.js'
import { adviseOn } from './inspector-advice.js'
import { toCurl } from './inspector-curl.js'

/** The inspector's element factory. */
export type Make = <K extends keyof HTMLElementTagNameMap>(
  tag: K,
  attrs?: Record<string, string>,
  ...children: Array<Node | string>
) => HTMLElementTagNameMap[K]

/** One journal entry as the inspector lists it: outcome, rate limits, advice, curl. */
export function renderEntry(
  entry: JournalEntry,
  origin: string,
  el: Make,
): HTMLLIElement {
  const klass =
    entry.status >= 500 || entry.dropped
      ? 5
      : entry.status >= 400
        ? 4
        : entry.status >= 300
          ? 3
          : 2
  const time = entry.at.slice(11, 19)
  const line = el(
    'div',
    { class: 'psi-line' },
    el(
      'span',
      { class: `psi-badge psi-s${klass}` },
      entry.dropped ? 'dropped' : String(entry.status),
    ),
    el('code', { class: 'psi-method' }, entry.method),
    el('code', { class: 'psi-path' }, entry.path),
    ...(entry.code ? [el('code', { class: 'psi-code' }, entry.code)] : []),
    ...(entry.deprecated ? [el('span', { class: 'psi-flag' }, 'deprecated')] : []),
    ...(entry.ignoredRetryAfter
      ? [el('span', { class: 'psi-flag' }, 'ignored Retry-After')]
      : []),
    ...(entry.override ? [el('span', { class: 'psi-flag' }, 'your handler')] : []),
    el('time', { datetime: entry.at, title: `${entry.at} (sandbox clock)` }, time),
  )
  const meta = el('dl', { class: 'psi-meta' })
  const add = (term: string, value: string) =>
    meta.append(el('div', {}, el('dt', {}, term), el('dd', {}, value)))
  add('Key', entry.key ?? 'none (or unknown)')
  add('Plan', entry.plan ?? '–')
  add('Scenario', entry.scenario)
  add('Latency', `${entry.durationMs} ms`)
  if (entry.rateLimit) {
    const { limit, remaining, reset, retryAfter } = entry.rateLimit
    const resets = new Date(reset * 1000).toISOString().slice(11, 19)
    add(
      'Rate limit after',
      `${remaining} of ${limit} left, resets ${resets}${retryAfter === undefined ? '' : `, Retry-After ${retryAfter} s`}`,
    )
  }
  if (entry.session) add('Session', entry.session)
  if (entry.operation) add('Operation', entry.operation)

  const item = el('li', {
    id: `request-${entry.id}`,
    class: 'psi-entry',
    'data-status': String(entry.status),
    'data-id': String(entry.id),
    ...(entry.code ? { 'data-code': entry.code } : {}),
  })
  item.append(line, meta)
  const advice = adviseOn(entry)
  if (entry.message || advice.length > 0) {
    const box = el('div', {
      class: entry.status >= 400 || entry.dropped ? 'psi-error' : 'psi-warning',
    })
    if (entry.message) box.append(el('p', { class: 'psi-message' }, entry.message))
    for (const text of advice) {
      box.append(el('p', { class: 'psi-advice' }, el('strong', {}, 'What to do: '), text))
    }
    item.append(box)
  }
  const curl = toCurl(entry, origin)
  const details = el(
    'details',
    {},
    el('summary', {}, 'Request and curl'),
    el('pre', { class: 'psi-curl' }, el('code', {}, curl)),
  )
  if (entry.headers) {
    details.append(
      el(
        'pre',
        { class: 'psi-headers', 'aria-label': 'Request headers kept' },
        Object.entries(entry.headers)
          .map(([name, value]) => `${name}: ${value}`)
          .join('\n'),
      ),
    )
  }
  if (entry.body !== undefined) {
    details.append(
      el(
        'pre',
        { class: 'psi-body', 'aria-label': 'Request body' },
        entry.body + (entry.bodyTruncated ? '\n… (cut at 4 KiB)' : ''),
      ),
    )
  } else if (entry.bodyTruncated) {
    details.append(el('p', {}, 'The body is no longer kept (the journal keeps 64 KiB).'))
  }
  const copyButton = el(
    'button',
    {
      type: 'button',
      class: 'psi-copy',
      'data-curl': curl,
      'aria-label': `Copy as curl: ${entry.method} ${entry.path}`,
    },
    'Copy as curl',
  )
  line.append(copyButton)
  item.append(details)
  return item
}
