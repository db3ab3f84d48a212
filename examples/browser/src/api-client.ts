import type {
  ApiError,
  NewPet,
  Pet,
  PetStatus,
  SandboxState,
} from 'petstore-sandbox/browser'

/** What a call gives back: the parsed body, the status and the headers, never a throw. */
export type ApiResult<T> =
  | { ok: true; status: number; data: T; headers: Headers; label: string }
  | { ok: false; status: number; error: ApiError; headers: Headers; label: string }

/** The headers the demo shows; the seed puts the first three on every /v1 response. */
export const SHOWN_HEADERS = [
  'X-RateLimit-Limit',
  'X-RateLimit-Remaining',
  'X-RateLimit-Reset',
  'Retry-After',
  'Deprecation',
  'Sunset',
  'Link',
] as const

export interface ApiClientOptions {
  /** Origin of the API ('' for this page's origin); the paths are the API's own. */
  origin: string
  apiKey(): string
  /** Called after every /v1 response, for the "last response" panel. */
  onApiResponse?(result: ApiResult<unknown>): void
}

/** A small client of the v1 API and the sandbox control API, as an app would write one. */
export function createApiClient({ origin, apiKey, onApiResponse }: ApiClientOptions) {
  async function call<T>(
    method: string,
    path: string,
    body?: unknown,
  ): Promise<ApiResult<T>> {
    const isApi = path.startsWith('/v1/')
    const headers: Record<string, string> = { accept: 'application/json' }
    if (isApi) headers.authorization = `Bearer ${apiKey()}`
    if (body !== undefined) headers['content-type'] = 'application/json'
    const label = `${method} ${path}`
    let result: ApiResult<T>
    try {
      const response = await fetch(`${origin}${path}`, {
        method,
        headers,
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      })
      const parsed: unknown = (response.headers.get('content-type') ?? '').includes(
        'json',
      )
        ? await response.json()
        : await response.text()
      result = response.ok
        ? {
            ok: true,
            status: response.status,
            data: parsed as T,
            headers: response.headers,
            label,
          }
        : {
            ok: false,
            status: response.status,
            error: toApiError(parsed, response.status),
            headers: response.headers,
            label,
          }
    } catch (error) {
      // A network failure has no response; the UI shows it like an API error.
      result = {
        ok: false,
        status: 0,
        error: { code: 'network_error', message: (error as Error).message, status: 0 },
        headers: new Headers(),
        label,
      }
    }
    if (isApi) onApiResponse?.(result as ApiResult<unknown>)
    return result
  }

  return {
    listPets(query: { status?: PetStatus | ''; limit?: string }) {
      const params = new URLSearchParams()
      // The limit goes as typed, so the API's own validation answers an invalid one.
      if (query.limit !== undefined && query.limit !== '')
        params.set('limit', query.limit)
      if (query.status) params.set('status', query.status)
      const search = params.toString()
      return call<Pet[]>('GET', `/v1/pets${search ? `?${search}` : ''}`)
    },
    createPet: (pet: Partial<Record<keyof NewPet, unknown>>) =>
      call<Pet>('POST', '/v1/pets', pet),
    getPet: (id: number) => call<Pet>('GET', `/v1/pets/${id}`),
    state: () => call<SandboxState>('GET', '/__sandbox'),
    useScenario: (name: string) =>
      call<{ name: string; description: string }>('PUT', '/__sandbox/scenario', { name }),
    reset: () => call<SandboxState>('POST', '/__sandbox/reset'),
  }
}

export type ApiClient = ReturnType<typeof createApiClient>

function toApiError(body: unknown, status: number): ApiError {
  if (typeof body === 'object' && body !== null && 'code' in body && 'message' in body) {
    return body as ApiError
  }
  // Not the API's Error body (a proxy page, say): keep what there is to show.
  return { code: 'unexpected_response', message: String(body).slice(0, 200), status }
}
