import type { Preview } from '@storybook/react-vite'
import { mswLoader } from 'msw-storybook-addon/csf3'

/**
 * The sandbox in Storybook's page: msw-storybook-addon starts this worker once, and
 * resets it between stories (which also resets the sandbox's data, limits and clock).
 * Loaded with import() so the sandbox is fetched only when a story needs it.
 */
export async function startSandboxWorker() {
  const { setupSandboxWorker } = await import('petstore-sandbox/browser')
  const worker = setupSandboxWorker({ seed: 42 })
  await worker.start({ quiet: true, onUnhandledRequest: 'bypass' })
  return worker
}

const preview: Preview = {
  loaders: [mswLoader(startSandboxWorker)],
}
export default preview
