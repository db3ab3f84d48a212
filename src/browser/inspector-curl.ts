import type { JournalEntry } from '../core/coach/journal.js'

// "Copy as curl" of the inspector: the command that replays a journalled request, and
// the copy itself.

const CANONICAL: Record<string, string> = {
  'content-type': 'Content-Type',
  'x-sandbox-scenario': 'X-Sandbox-Scenario',
  'x-sandbox-session': 'X-Sandbox-Session',
}

/**
 * A curl command that replays a journalled request against `origin`: its method, path,
 * demo key (demo keys are not secrets), kept headers, session and body. An unknown
 * token was never journalled, so its place shows `<key>`.
 */
export function toCurl(entry: JournalEntry, origin: string): string {
  const quote = (text: string) => `'${text.replace(/'/g, `'\\''`)}'`
  const parts = ['curl', '-i']
  if (entry.method !== 'GET') parts.push('-X', entry.method)
  parts.push(quote(`${origin}${entry.path}`))
  if (entry.key) parts.push('-H', quote(`Authorization: Bearer ${entry.key}`))
  else if (entry.code === 'invalid_api_key' || entry.code === 'malformed_authorization') {
    parts.push('-H', quote('Authorization: Bearer <key>'))
  }
  const headers = entry.headers ?? {}
  for (const [name, value] of Object.entries(headers)) {
    parts.push('-H', quote(`${CANONICAL[name] ?? name}: ${value}`))
  }
  if (entry.session && headers['x-sandbox-session'] === undefined) {
    parts.push('-H', quote(`X-Sandbox-Session: ${entry.session}`))
  }
  if (entry.body !== undefined) parts.push('--data-raw', quote(entry.body))
  return parts.join(' ')
}

export async function copy(button: HTMLButtonElement, status: HTMLElement) {
  const text = button.dataset.curl ?? ''
  let done = false
  try {
    await navigator.clipboard.writeText(text)
    done = true
  } catch {
    // No clipboard API (a page not on a secure origin): the legacy copy command.
    const area = document.createElement('textarea')
    area.value = text
    area.setAttribute('readonly', '')
    area.style.position = 'fixed'
    area.style.opacity = '0'
    ;(button.getRootNode() as ParentNode).append(area)
    area.select()
    done = document.execCommand('copy')
    area.remove()
  }
  button.textContent = done ? 'Copied' : 'Copy failed'
  button.dataset.copied = String(done)
  status.dataset.copied = done ? text : ''
  setTimeout(() => {
    button.textContent = 'Copy as curl'
  }, 1500)
}
