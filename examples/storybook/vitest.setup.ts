import { setProjectAnnotations } from '@storybook/react-vite'
import { mswLoader } from 'msw-storybook-addon/csf3'
import { setupSandboxServer } from 'petstore-sandbox/node'
import { afterAll } from 'vitest'
import preview from './.storybook/preview.js'

// The stories run here as portable stories: Storybook's own annotations, with the
// sandbox on msw's setupServer in place of the browser's worker.
const server = setupSandboxServer({ seed: 42 })

setProjectAnnotations([
  {
    ...preview,
    loaders: [
      mswLoader(async () => {
        server.listen({ onUnhandledRequest: 'error' })
        // msw-storybook-addon types its instance as a worker; it only calls use() and
        // resetHandlers(), which setupServer has too.
        return server as unknown as Awaited<
          ReturnType<Parameters<typeof mswLoader>[0] & {}>
        >
      }),
    ],
  },
])

afterAll(() => server.close())
