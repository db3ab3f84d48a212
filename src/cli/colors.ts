import type { WriteStream } from 'node:tty'

export type Paint = (code: number, text: string) => string

/** ANSI colours when the stream is a terminal and NO_COLOR is not set (no-color.org). */
export function createPaint(stream: NodeJS.WritableStream): Paint {
  const env = process.env
  const enabled =
    env.FORCE_COLOR !== undefined && env.FORCE_COLOR !== '0'
      ? true
      : env.NO_COLOR === undefined && (stream as WriteStream).isTTY === true
  return enabled ? (code, text) => `\x1b[${code}m${text}\x1b[0m` : (_code, text) => text
}

export const BOLD = 1
export const DIM = 2
export const RED = 31
export const GREEN = 32
export const YELLOW = 33
export const CYAN = 36
