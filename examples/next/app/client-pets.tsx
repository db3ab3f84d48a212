'use client'

import { useEffect, useState } from 'react'
import { enableMocking } from '../mocks/enable'
import { listPets, type Pet } from '../lib/pets-api'

// A client component: it fetches in the browser, where the service worker answers.
export function ClientPets() {
  const [pets, setPets] = useState<Pet[]>()
  const [error, setError] = useState<string>()
  useEffect(() => {
    enableMocking()
      .then(() => listPets(5))
      .then(setPets, (reason: unknown) => setError(String(reason)))
  }, [])
  if (error) return <p role="alert">{error}</p>
  if (!pets) return <p>Loading…</p>
  return (
    <ul aria-label="client pets">
      {pets.map((pet) => (
        <li key={pet.id}>{pet.name}</li>
      ))}
    </ul>
  )
}
