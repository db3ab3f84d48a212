// The code under test: a small API client, as an app would have.
export interface Pet {
  id: number
  name: string
  categoryId: number
  status?: 'available' | 'pending' | 'adopted'
}

export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly retryAfter: number | undefined,
  ) {
    super(message)
  }
}

export function createPetsApi(apiKey: string, baseUrl = 'https://api.example.test/v1') {
  async function call<T>(path: string, init: RequestInit = {}): Promise<T> {
    const response = await fetch(`${baseUrl}${path}`, {
      ...init,
      headers: {
        Authorization: `Bearer ${apiKey}`,
        'Content-Type': 'application/json',
        ...init.headers,
      },
    })
    const body = await response.json()
    if (!response.ok) {
      const retryAfter = response.headers.get('retry-after')
      throw new ApiError(
        body.status,
        body.code,
        body.message,
        retryAfter ? Number(retryAfter) : undefined,
      )
    }
    return body as T
  }
  return {
    listPets: (limit = 20) => call<Pet[]>(`/pets?limit=${limit}`),
    createPet: (pet: Omit<Pet, 'id'>) =>
      call<Pet>('/pets', { method: 'POST', body: JSON.stringify(pet) }),
  }
}
