import type { HeaderMap } from '../http/reply.js'

/** getPet is removed on this instant (seed: "to be removed on 5 December 2030"). */
export const GET_PET_SUNSET = Date.UTC(2030, 11, 5)

/**
 * The seed marks getPet deprecated without saying since when; the sandbox reports the
 * start of 2026, a date in the past, meaning "deprecated now" (docs/api.md#deprecation).
 */
export const GET_PET_DEPRECATED_SINCE = Date.UTC(2026, 0, 1)

/** RFC 9745 `Deprecation`, RFC 8594 `Sunset` and a `Link` to the replacement. */
export function deprecationHeaders(apiBase: string): HeaderMap {
  return {
    deprecation: `@${GET_PET_DEPRECATED_SINCE / 1000}`,
    sunset: new Date(GET_PET_SUNSET).toUTCString(),
    link: `<${apiBase}/pets>; rel="successor-version"`,
  }
}
