import { ownValue } from '../common/own-names.js'
import type { Scenario } from './scenarios.js'

/** Which request of which session of which sandbox: what decides a drop. */
export interface RequestCoordinates {
  /** The sandbox's seed (option `seed`, `--seed`). */
  seed: number
  /** The session's id (`default` for the default session). */
  session: string
  /** The request's number in its session, from 1, counted since start or reset. */
  requestNumber: number
}

/**
 * The share of an operation's requests a scenario drops: its own entry in `faults`, or
 * the `*` entry, or 0.
 */
export function dropShare(
  scenario: Pick<Scenario, 'faults'>,
  /** The route's operation id (`listPets`), or undefined for a path of no operation. */
  operation: string | undefined,
): number {
  const faults = scenario.faults
  if (!faults) return 0
  // Own names only: "constructor" is no operation of the scenario's.
  const own = operation === undefined ? undefined : ownValue(faults, operation)
  return (own ?? faults['*'])?.drop ?? 0
}

/**
 * Whether the sandbox drops this request: gives it no HTTP answer at all. The choice is
 * a hash of the seed, the session and the request's number, not a random draw, so a
 * test run that saw request 7 dropped sees it dropped again, in node, in the browser
 * and over HTTP alike, and sessions side by side drop different requests. Over many
 * requests the dropped share is the scenario's `drop`. A request that matches no
 * operation (`operation` undefined) follows `*`: a network does not read the path.
 *
 * @example
 * dropsRequest(flakyNetwork, 'listPets', { seed: 42, session: 'default', requestNumber: 7 })
 * @see docs/faults.md
 */
export function dropsRequest(
  scenario: Pick<Scenario, 'faults'>,
  operation: string | undefined,
  coordinates: RequestCoordinates,
): boolean {
  const share = dropShare(scenario, operation)
  if (share <= 0) return false
  if (share >= 1) return true
  return unitHash(coordinates) < share
}

/**
 * A number in [0, 1) from the coordinates: FNV-1a over their text (UTF-16 code units,
 * which every JavaScript runtime reads alike), then murmur3's finalizer, because FNV-1a
 * alone leaves consecutive request numbers with correlated high bits. The seed comes
 * first and the number last, both without ":", so no two coordinates share a text
 * whatever the session's id holds.
 */
export function unitHash({ seed, session, requestNumber }: RequestCoordinates): number {
  const text = `${seed}:${session}:${requestNumber}`
  let hash = 0x811c9dc5
  for (let index = 0; index < text.length; index++) {
    hash ^= text.charCodeAt(index)
    hash = Math.imul(hash, 0x01000193)
  }
  hash ^= hash >>> 16
  hash = Math.imul(hash, 0x85ebca6b)
  hash ^= hash >>> 13
  hash = Math.imul(hash, 0xc2b2ae35)
  hash ^= hash >>> 16
  return (hash >>> 0) / 0x1_0000_0000
}
