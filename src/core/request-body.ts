/** Where a request keeps the body its server adapter read already (`attachRequestBody`). */
// Symbol.for: a sandbox from another copy of this package still finds the body.
const BODY = Symbol.for('petstore-sandbox.body')
type WithBody = Request & { [BODY]?: Uint8Array }

/**
 * Gives the core the body of a request a server adapter has read already, so the adapter
 * builds the Fetch `Request` without one: Node 20's undici wraps every body in a
 * ReadableStream, eagerly, and reading it back costs as much again, together a tenth of
 * a POST (npm run bench). Only for requests nothing but the sandbox's handlers reads.
 */
export function attachRequestBody(request: Request, bytes: Uint8Array): void {
  ;(request as WithBody)[BODY] = bytes
}

/** The body of a request to the sandbox: the one its adapter attached, or its own. */
export async function readRequestBytes(request: Request): Promise<Uint8Array> {
  return (request as WithBody)[BODY] ?? new Uint8Array(await request.arrayBuffer())
}
