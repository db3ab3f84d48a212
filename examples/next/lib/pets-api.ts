// The app's API client, the same with and without the sandbox: it calls the real base
// address, and when mocking is on, msw answers that address (on any origin) instead.
export const API_BASE = 'https://api.example.test/v1'

export interface Pet {
  id: number
  name: string
  categoryId: number
  status?: 'available' | 'pending' | 'sold'
}

// A demo key of the sandbox. A real app reads its key from its environment (and keeps a
// secret one on the server).
const API_KEY = 'sandbox-free-key'

export async function listPets(limit = 5): Promise<Pet[]> {
  const response = await fetch(`${API_BASE}/pets?limit=${limit}`, {
    headers: { Authorization: `Bearer ${API_KEY}` },
  })
  if (!response.ok) throw new Error(`listPets answered ${response.status}`)
  return (await response.json()) as Pet[]
}
