import type { JournalEntry } from '../core/coach/journal.js'
import { BOLD, CYAN, DIM, GREEN, RED, YELLOW, type Paint } from './colors.js'
import type { LogFormat } from './flags.js'

/**
 * One line per /v1 request: time, request id (`#42`: GET /__sandbox/requests/42, or the
 * inspector's #request-42), method, path, status (and error code) or "dropped"
 * (docs/faults.md), who answered when it was one of the user's own handlers, duration,
 * key and plan, scenario, session (when not the default one), plus a warning when the client called the deprecated endpoint or
 * ignored a 429's Retry-After, the two habits the real API punishes.
 */
export function formatRequest(
  entry: JournalEntry,
  format: LogFormat,
  paint: Paint,
): string {
  if (format === 'json') {
    // The log stays one short line a request: the body is the inspector's to show.
    const { body: _body, bodyTruncated: _truncated, ...logged } = entry
    return JSON.stringify({ type: 'request', ...logged })
  }
  const time = new Date().toTimeString().slice(0, 8)
  const color = entry.status >= 500 ? RED : entry.status >= 400 ? YELLOW : GREEN
  // A dropped request has no status to show (the journal says 0): say what happened.
  const status = entry.dropped
    ? paint(RED, 'dropped (no answer)')
    : paint(color, `${entry.status}${entry.code ? ` ${entry.code}` : ''}`)
  // A request refused before its key was read (an unknown scenario, a bad path) had no
  // key checked: "no valid key" is for the 401s.
  const key = entry.key
    ? `${entry.key}${entry.plan ? ` (${entry.plan})` : ''}`
    : entry.status === 401
      ? 'no valid key'
      : 'key not checked'
  const warnings: string[] = []
  if (entry.code === 'endpoint_removed') {
    warnings.push(
      'removed endpoint: GET /v1/pets/{petId} was removed on 5 December 2030, use GET /v1/pets with the status filter',
    )
  } else if (entry.deprecated) {
    warnings.push(
      'deprecated endpoint: GET /v1/pets/{petId} is removed on 5 December 2030, use GET /v1/pets with the status filter',
    )
  }
  if (entry.ignoredRetryAfter) {
    warnings.push(
      entry.code === 'api_key_temporarily_banned'
        ? 'the key is temporarily banned for not waiting after a 429: wait for Retry-After, then back off'
        : 'sent while a 429 asked to wait (Retry-After): keep this up and the key is banned',
    )
  }
  const warning =
    warnings.length > 0 ? `  ${paint(YELLOW, `⚠ ${warnings.join('; ')}`)}` : ''
  // An answer of the user's own handler (--handlers) is theirs, not the sandbox's.
  const override = entry.override ? ` ${paint(CYAN, '(your handler)')}` : ''
  // A session's requests name it: on a shared server, whose request this was.
  const session =
    entry.session === undefined ? '' : ` ${paint(CYAN, `session ${entry.session}`)}`
  return `${paint(DIM, `${time} #${entry.id}`)} ${paint(BOLD, entry.method)} ${entry.path} ${status}${override} ${paint(DIM, `${entry.durationMs} ms`)} ${key} ${paint(CYAN, `[${entry.scenario}]`)}${session}${warning}`
}
