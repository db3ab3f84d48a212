import { assertSupportedMsw } from '../node/check-msw.js'

assertSupportedMsw('petstore-sandbox/express')

export { DEFAULT_BODY_LIMIT, type ExpressAdapterOptions } from './adapter-options.js'
export {
  createSandboxMiddleware,
  type SandboxMiddleware,
  type SandboxMiddlewareOptions,
} from './create-sandbox-middleware.js'
export {
  createSandboxApp,
  type SandboxApp,
  type SandboxAppAdapterOptions,
  type SandboxAppOptions,
} from './create-sandbox-app.js'
export {
  listenSandboxApp,
  TRANSPORT_LIMITS,
  type ListenOptions,
} from './listen-sandbox-app.js'
export { CORS_ALLOWED_HEADERS, CORS_EXPOSED_HEADERS } from './cors.js'
export { loadScenarioFile, loadFixturesFile } from '../node/files.js'
export type { NodeSandboxOptions } from '../node/files.js'
export {
  createFileStore,
  type FileStore,
  type FileStoreOptions,
} from '../node/file-store/index.js'
export * from '../index.js'
