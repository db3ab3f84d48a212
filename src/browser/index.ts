export { setupSandboxWorker } from './setup-sandbox-worker.js'
export type { SandboxWorker, SandboxWorkerStartOptions } from './setup-sandbox-worker.js'
export * from '../index.js'
