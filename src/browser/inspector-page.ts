import type { DownloadKind } from './inspector-download.js'
import type { Report } from '../core/coach/report-card.js'
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
  return get<JournalPage>(`/__sandbox/requests?${query}`, session)
}

function download(session: string, kind: DownloadKind): Promise<unknown> {
  return get(kind === 'har' ? '/__sandbox/requests.har' : '/__sandbox/export', session)
}

/** The request the page's address names (`#request-42`, the CLI log's `#42`), if any. */
function requestInHash(): number | undefined {
  const id = /^#request-(\d{1,15})$/.exec(location.hash)?.[1]
  return id === undefined ? undefined : Number(id)
}

/** The session that holds a request: GET /__sandbox/requests/{id} finds it in any. */
async function sessionOf(id: number): Promise<string | undefined> {
  const response = await fetch(`/__sandbox/requests/${id}`, {
    headers: headersFor(''),
    cache: 'no-store',
  })
  if (!response.ok) return undefined
  const entry = (await response.json()) as { session?: string }
  return entry.session ?? ''
}

const report = (session: string) => get<Report>('/__sandbox/report', session)

async function start(root: HTMLElement) {
  const focus = requestInHash()
  const found = focus === undefined ? undefined : await sessionOf(focus)
  const inspector = mountInspector(root, {
    source: { read, report, download },
    origin: location.origin,
    session: found ?? params.get('session') ?? '',
    ...(focus === undefined ? {} : { focus }),
  })
  // A link to another request (the report's examples) opens it in its session.
  addEventListener('hashchange', () => {
    const id = requestInHash()
    if (id === undefined) return
    void sessionOf(id).then((session) => inspector.show(id, session ?? ''))
  })
  document.body.dataset.ready = 'true'
}

const root = document.getElementById('inspector')
if (root) void start(root)
