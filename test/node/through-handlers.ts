import { getResponse } from 'msw'
import type { Sandbox } from 'petstore-sandbox'

/**
 * Requests through a sandbox's msw handlers with msw's getResponse, in-process (no port,
 * no files), sent with the bearer `key`: `ask` any path, `post` a pet by name.
 */
export function throughHandlers(key: string) {
  const auth = { authorization: `Bearer ${key}` }
  const ask = async (sandbox: Sandbox, path: string, init: RequestInit = {}) => {
    const response = await getResponse(
      sandbox.handlers,
      new Request(`https://x.test${path}`, {
        ...init,
        headers: { ...auth, ...(init.headers as Record<string, string>) },
      }),
    )
    if (!response) throw new Error(`no handler answered ${path}`)
    return response
  }
  const post = (sandbox: Sandbox, name: string) =>
    ask(sandbox, '/v1/pets', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ name, categoryId: 1 }),
    })
  return { ask, post }
}
