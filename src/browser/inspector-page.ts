import type { Report } from '../core/report-card.js'
import { mountInspector, type JournalPage } from './inspector-view.js'

// The page at /inspector/ of the standalone server: the inspector over the control API
// of the server that served it. It obeys the control API's rules: a server beyond
// loopback needs the token, which the banner's link carries (`?token=`).

const params = new URLSearchParams(location.search)
const token = params.get('token') ?? undefined
for (const link of document.querySelectorAll<HTMLAnchorElement>('a[data-token]')) {
  if (token !== undefined) link.href += `?token=${encodeURIComponent(token)}`
}

/** The control API's headers for a session: the token, and the session named. */
function headersFor(session: string): Record<string, string> {
  const headers: Record<string, string> = {}
  if (token !== undefined) headers['x-sandbox-control-token'] = token
  // A session key names its session as a bearer token; an id with the header.
  if (session.includes('.')) headers.authorization = `Bearer ${session}`
  else if (session !== '') headers['x-sandbox-session'] = session
  return headers
}

/** A GET of the control API as JSON, or an Error with the answer's message. */
async function get<T>(path: string, session: string): Promise<T> {
  const response = await fetch(path, { headers: headersFor(session), cache: 'no-store' })
  const body = (await response.json().catch(() => undefined)) as
    (T & { message?: string }) | undefined
  if (!response.ok || !body) {
    throw new Error(
      body?.message ?? `GET ${path.split('?')[0]} answered ${response.status}.`,
    )
  }
  return body
}

function read(session: string, after: number | undefined): Promise<JournalPage> {
  const query = new URLSearchParams({ limit: '200' })
  if (after !== undefined) query.set('after', String(after))
  return get(`/__sandbox/requests?${query}`, session)
}

const report = (session: string) => get<Report>('/__sandbox/report', session)

const root = document.getElementById('inspector')
if (root) {
  mountInspector(root, {
    source: { read, report },
    origin: location.origin,
    session: params.get('session') ?? '',
  })
  document.body.dataset.ready = 'true'
}
