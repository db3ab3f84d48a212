import { useEffect, useState } from 'react'

interface Pet {
  id: number
  name: string
  status?: string
}
interface ApiError {
  code: string
  message: string
  status: number
}

export interface PetListProps {
  apiKey: string
  baseUrl?: string
}

/** Lists pets, or shows the API's error message (with the wait on a 429). */
export function PetList({
  apiKey,
  baseUrl = 'https://api.example.test/v1',
}: PetListProps) {
  const [state, setState] = useState<
    { pets: Pet[] } | { error: ApiError; retryAfter: string | null } | undefined
  >()
  useEffect(() => {
    let live = true
    void fetch(`${baseUrl}/pets?limit=5`, {
      headers: { Authorization: `Bearer ${apiKey}` },
    }).then(async (response) => {
      const body: unknown = await response.json()
      if (!live) return
      if (response.ok) setState({ pets: body as Pet[] })
      else
        setState({
          error: body as ApiError,
          retryAfter: response.headers.get('retry-after'),
        })
    })
    return () => {
      live = false
    }
  }, [apiKey, baseUrl])

  if (!state) return <p>Loading pets…</p>
  if ('error' in state) {
    return (
      <p role="alert">
        {state.error.message}
        {state.retryAfter ? ` Try again in ${state.retryAfter} s.` : ''}
      </p>
    )
  }
  return (
    <ul aria-label="pets">
      {state.pets.map((pet) => (
        <li key={pet.id}>{pet.name}</li>
      ))}
    </ul>
  )
}
