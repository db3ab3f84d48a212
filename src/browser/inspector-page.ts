import { mountInspector, type JournalPage } from './inspector-view.js'

// The page at /inspector/ of the standalone server: the inspector over the control API
// of the server that served it. It obeys the control API's rules: a server beyond
// loopback needs the token, which the banner's link carries (`?token=`).

const params = new URLSearchParams(location.search)
const token = params.get('token') ?? undefined
for (const link of document.querySelectorAll<HTMLAnchorElement>('a[data-token]')) {
  if (token !== undefined) link.href += `?token=${encodeURIComponent(token)}`
}

async function read(session: string, after: number | undefined): Promise<JournalPage> {
  const query = new URLSearchParams({ limit: '200' })
  if (after !== undefined) query.set('after', String(after))
  const headers: Record<string, string> = {}
  if (token !== undefined) headers['x-sandbox-control-token'] = token
  // A session key names its session as a bearer token; an id with the header.
  if (session.includes('.')) headers.authorization = `Bearer ${session}`
  else if (session !== '') headers['x-sandbox-session'] = session
  const response = await fetch(`/__sandbox/requests?${query}`, {
    headers,
    cache: 'no-store',
  })
  const body = (await response.json().catch(() => undefined)) as
    (JournalPage & { message?: string }) | undefined
  if (!response.ok || !body) {
    throw new Error(
      body?.message ?? `GET /__sandbox/requests answered ${response.status}.`,
    )
  }
  return body
}

const root = document.getElementById('inspector')
if (root) {
  mountInspector(root, {
    source: { read },
    origin: location.origin,
    session: params.get('session') ?? '',
  })
  document.body.dataset.ready = 'true'
}
