import { watch, type FSWatcher, statSync } from 'node:fs'
import { basename, dirname, resolve } from 'node:path'

/** Editors save in bursts (truncate, write, rename); one reload per burst. */
const SETTLE_MS = 80

/**
 * Calls `onChange(path)` when a watched file, or a file in a watched folder, changes.
 * Files are watched through their folder, because editors that save by renaming a new
 * file over the old one would leave a watch on the file itself looking at nothing.
 */
export function watchFiles(
  paths: string[],
  onChange: (path: string) => void,
): { close(): void } {
  const byFolder = new Map<string, Array<{ path: string; name: string | undefined }>>()
  for (const path of paths.map((entry) => resolve(entry))) {
    const folder = isDirectory(path) ? path : dirname(path)
    const name = folder === path ? undefined : basename(path)
    byFolder.set(folder, [...(byFolder.get(folder) ?? []), { path, name }])
  }
  const timers = new Map<string, NodeJS.Timeout>()
  const watchers: FSWatcher[] = []
  for (const [folder, targets] of byFolder) {
    const watcher = watch(folder, (_event, filename) => {
      for (const target of targets) {
        if (target.name !== undefined && filename !== null && filename !== target.name)
          continue
        clearTimeout(timers.get(target.path))
        timers.set(
          target.path,
          setTimeout(() => {
            timers.delete(target.path)
            onChange(target.path)
          }, SETTLE_MS),
        )
      }
    })
    watchers.push(watcher)
  }
  return {
    close() {
      for (const watcher of watchers) watcher.close()
      for (const timer of timers.values()) clearTimeout(timer)
    },
  }
}

function isDirectory(path: string) {
  try {
    return statSync(path).isDirectory()
  } catch {
    return false
  }
}
