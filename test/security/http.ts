import { request as httpRequest } from 'node:http'

/** A reply read whole: status, lower-case headers, body text. */
export interface Reply {
  status: number
  headers: Record<string, string | string[] | undefined>
  body: string
}

/**
 * Sends one request to 127.0.0.1:port with exactly these headers: unlike fetch, Node's
 * http client lets a test choose `Host` (DNS rebinding) and `Origin`.
 */
export function send(
  port: number,
  method: string,
  path: string,
  headers: Record<string, string> = {},
  body?: string,
  address = '127.0.0.1',
): Promise<Reply> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      {
        host: address,
        port,
        method,
        path,
        headers: {
          ...(headers.host === undefined ? { host: `${address}:${port}` } : {}),
          ...(body === undefined ? {} : { 'content-length': Buffer.byteLength(body) }),
          connection: 'close',
          ...headers,
        },
        agent: false,
      },
      (res) => {
        let text = ''
        res.setEncoding('utf8')
        res.on('data', (chunk: string) => (text += chunk))
        res.on('end', () =>
          resolve({ status: res.statusCode ?? 0, headers: res.headers, body: text }),
        )
        res.on('error', reject)
      },
    )
    req.on('error', reject)
    req.end(body)
  })
}

/** The Error body's code of a reply. */
export const codeOf = (reply: Reply) => (JSON.parse(reply.body) as { code: string }).code
