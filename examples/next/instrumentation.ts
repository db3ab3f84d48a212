// Next.js calls register() once when a server starts, before it serves a request.
export async function register() {
  // Only in the Node.js runtime: msw's setupServer patches Node's fetch, http and https,
  // which the edge runtime does not have. Both conditions are known at build time, so a
  // build without NEXT_PUBLIC_API_MOCKING=enabled never loads the sandbox.
  if (
    process.env.NEXT_RUNTIME === 'nodejs' &&
    process.env.NEXT_PUBLIC_API_MOCKING === 'enabled'
  ) {
    const { server } = await import('./mocks/node')
    server.listen({ onUnhandledRequest: 'bypass' })
  }
}
