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

/**
 * Adds the two buttons to the inspector's controls: a click asks `download` for the
 * session shown and hands the answer to the browser as a file; `status` says how it went
 * (`describe` writes the inspector's own line, with a note).
 */
export function addDownloads(
  controls: HTMLElement,
  download: (session: string, kind: DownloadKind) => Promise<unknown>,
  shown: () => string,
  status: HTMLElement,
  describe: (note: string) => void,
): void {
  const doc = controls.ownerDocument
  const group = doc.createElement('div')
  group.className = 'psi-downloads'
  group.setAttribute('role', 'group')
  group.setAttribute('aria-label', 'Download this session')
  for (const [kind, label] of DOWNLOADS) {
    const button = doc.createElement('button')
    button.type = 'button'
    button.textContent = label
    button.addEventListener('click', () => {
      const session = shown()
      const name = downloadName(session, kind)
      download(session, kind).then(
        (data) => {
          saveJson(doc, name, data)
          describe(`; downloaded ${name}`)
        },
        (error: unknown) => {
          status.textContent = `Cannot download: ${(error as Error).message}`
          status.classList.add('psi-failed')
        },
      )
    })
    group.append(button)
  }
  controls.append(group)
}
