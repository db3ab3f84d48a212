import type { RequestHandler } from 'msw'

declare const handlers: RequestHandler[]
export default handlers
