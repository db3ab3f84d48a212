// The first server of each OpenAPI document: the sandbox it was fetched from. The
// generator writes the shipped documents with the defaults below; the standalone server
// serves those files with the origin and mount path of the request (openapi-documents.ts),
// so this module stays free of zod, which only the build needs for the documents.

/** The origin the CLI serves on by default, named by the shipped API document. */
export const DEFAULT_SERVER_URL = 'http://127.0.0.1:4010'

/** The path prefix the API's operations are relative to. */
const API_BASE = '/v1'

/** A server URL without its trailing slashes. */
export const trimOrigin = (url: string) => url.replace(/\/+$/, '')

/** The API document's first server for a sandbox at `serverUrl` (origin and mount path). */
export const apiServerUrl = (serverUrl: string = DEFAULT_SERVER_URL) =>
  `${trimOrigin(serverUrl)}${API_BASE}`

/** The control API document's one server: the sandbox's root; `/` stays `/`. */
export const controlServerUrl = (serverUrl = '/') => trimOrigin(serverUrl) || '/'
