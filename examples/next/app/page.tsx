import { listPets } from '../lib/pets-api'
import { ClientPets } from './client-pets'

// Rendered on each request (not once at build time), so the list is what the API (or the
// sandbox, when mocking is on) answers now.
export const dynamic = 'force-dynamic'

// A server component: it fetches on the server, where instrumentation.ts started the sandbox.
export default async function Home() {
  const pets = await listPets(5)
  return (
    <main>
      <h1>Pets</h1>
      <h2>From a server component</h2>
      <ul aria-label="server pets">
        {pets.map((pet) => (
          <li key={pet.id}>{pet.name}</li>
        ))}
      </ul>
      <h2>From a client component</h2>
      <ClientPets />
      <p>
        And from a route handler: <a href="/api/pets">/api/pets</a>
      </p>
    </main>
  )
}
