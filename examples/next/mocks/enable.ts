// Starts the browser mocks once, before a client component's first request. With
// NEXT_PUBLIC_API_MOCKING unset at build time, Next inlines `undefined` here, the branch
// is dead, and the bundler leaves petstore-sandbox and msw out of the client chunks.
let started: Promise<unknown> | undefined

export function enableMocking(): Promise<unknown> {
  if (process.env.NEXT_PUBLIC_API_MOCKING === 'enabled') {
    started ??= import('./browser').then(({ startWorker }) => startWorker())
    return started
  }
  return Promise.resolve()
}
