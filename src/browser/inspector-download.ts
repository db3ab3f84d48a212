// "Download session" and "Download HAR" of the inspector: the session as an export
// (GET /__sandbox/export) to import elsewhere, and its journal as HAR for dev tools.

/** What the inspector downloads: the session's export, or its journal as HAR 1.2. */
export type DownloadKind = 'session' | 'har'

/** The buttons, in their order: kind and label. */
export const DOWNLOADS: ReadonlyArray<[DownloadKind, string]> = [
  ['session', 'Download session'],
  ['har', 'Download HAR'],
]

/** The session id of what the inspector was given: a session key names it after its last dot. */
export function sessionIdOf(session: string): string {
  return session.includes('.') ? session.slice(session.lastIndexOf('.') + 1) : session
}

/** The file name of a download: `<session>.session.json` or `<session>.har`. */
export function downloadName(session: string, kind: DownloadKind): string {
  const id = sessionIdOf(session)
  const base = `petstore-sandbox-${id === '' ? 'default' : id}`
  return kind === 'har' ? `${base}.har` : `${base}.session.json`
}

/** Hands `data` to the browser as a JSON file named `name` (a link to a Blob, clicked). */
export function saveJson(doc: Document, name: string, data: unknown): void {
  const url = URL.createObjectURL(
    new Blob([JSON.stringify(data, null, 2)], { type: 'application/json' }),
  )
  const link = doc.createElement('a')
  link.href = url
  link.download = name
  link.hidden = true
  doc.body.append(link)
  link.click()
  link.remove()
  // After the click has started the download: revoking at once can cancel it.
  setTimeout(() => URL.revokeObjectURL(url), 10_000)
}
