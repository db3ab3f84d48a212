// One override file for every runtime: setupSandboxServer({ handlers }), the Express app,
// `npx petstore-sandbox --handlers test/overrides/overrides.js` and the browser worker.
import { http, HttpResponse } from 'msw'

export default [
  // Answers for the sandbox: a pet the seed does not have, with a header of its own.
  http.get('*/v1/pets/4242', () =>
    HttpResponse.json(
      { id: 4242, name: 'Overridden', categoryId: 1, status: 'available' },
      { headers: { 'x-override': 'pet' } },
    ),
  ),
  // Reads the body, answers one name and falls through for every other.
  http.post('*/v1/pets', async ({ request }) => {
    const body = await request.json()
    if (body?.name !== 'Teapot') return undefined
    return HttpResponse.json(
      { code: 'teapot', message: 'Short and stout.', status: 418 },
      { status: 418 },
    )
  }),
  // A path outside the sandbox's.
  http.get('*/health', () => HttpResponse.json({ ok: true })),
]
