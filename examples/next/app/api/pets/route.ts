import { listPets } from '../../../lib/pets-api'

// A route handler: like the server component, it runs on the server, where
// instrumentation.ts started the sandbox.
export async function GET() {
  return Response.json(await listPets(5))
}
