import { seconds } from './report-retries.js'

// What the report card remembers of each key's creates (docs/report-card.md): the last
// few that made a pet, for `duplicate_create`, and the last few that were dropped since
// the key last read the pets, for `blind_retry`. Bodies are hashed, never kept.

/** Two identical creates of one key at most this far apart are a duplicate. */
export const DUPLICATE_WINDOW_MS = 10_000
/** The most recent creates of one key the card remembers, for duplicates. */
const CREATES_KEPT = 4
/** The most recent dropped creates of one key the card remembers, for blind retries. */
const DROPPED_KEPT = 4

/** What the card remembers of one key's creates. Made at its first create. */
interface KeyState {
  /** The key's last CREATES_KEPT creates that made a pet: hash, length, time, ... */
  creates: number[] | undefined
  /**
   * Its last DROPPED_KEPT creates that were dropped, since its last read: hash, length,
   * time, ... A create sent again with one of these bodies is a blind retry.
   */
  dropped: number[] | undefined
}

/** A create as the watch reads it. */
export interface SentCreate {
  /** The body's hash and length (`bodyHash`). */
  hash: number
  length: number
  /** Sandbox time it was sent, or undefined while the clock stands still. */
  at: number | undefined
  /** The faults scenario dropped it. */
  dropped: boolean
  /** It made a pet (201). */
  created: boolean
}

/** The words of the findings a create shows, each the numbers of its message. */
export interface CreateFindings {
  blind?: string
  duplicate?: string
}

/** Every key's creates of one report card. */
export class CreateWatch {
  // Most worlds see one key: its state is kept in fields, and a Map (whose table alone
  // is 150 bytes) is made for a second key, as the rate limiter does.
  #firstKey: string | undefined
  #first: KeyState | undefined
  #others: Map<string, KeyState> | undefined

  /** The key read the pets: its dropped creates may be sent again without guessing. */
  read(key: string): void {
    const state = this.#state(key)
    if (state?.dropped) state.dropped = undefined
  }

  /** Notes a create of `key`, and says what it shows. */
  create(key: string, sent: SentCreate): CreateFindings {
    let state = this.#state(key)
    if (!state) {
      state = { creates: undefined, dropped: undefined }
      if (this.#first === undefined) {
        this.#firstKey = key
        this.#first = state
      } else (this.#others ??= new Map()).set(key, state)
    }
    const blind = blindRetry(state, sent)
    const duplicate =
      sent.created && sent.at !== undefined
        ? duplicateOf(state, sent, sent.at)
        : undefined
    return {
      ...(blind === undefined ? {} : { blind }),
      ...(duplicate === undefined ? {} : { duplicate }),
    }
  }

  #state(key: string): KeyState | undefined {
    return key === this.#firstKey ? this.#first : this.#others?.get(key)
  }
}

/**
 * A create sent again with the body of one that was dropped, with no read in between:
 * the first may have been created. Remembers a dropped create; forgets one sent again
 * and answered.
 */
function blindRetry(state: KeyState, sent: SentCreate): string | undefined {
  const dropped = state.dropped
  const index = dropped ? findBody(dropped, sent.hash, sent.length) : -1
  let words: string | undefined
  if (dropped && index >= 0) {
    const since = dropped[index + 2] as number
    // A drop noted while the clock stood still has no time (0).
    const after =
      sent.at === undefined || since === 0
        ? ''
        : ` ${seconds(Math.max(0, sent.at - since))} after the drop`
    words = `The latest was sent again${after} with no GET /v1/pets or GET /v1/pets/{petId} in between.`
    dropped.splice(index, 3)
  }
  if (sent.dropped) {
    const list = (state.dropped ??= [])
    if (list.length >= DROPPED_KEPT * 3) list.splice(0, 3)
    list.push(sent.hash, sent.length, sent.at ?? 0)
  }
  return words
}

/** Notes a create that made a pet; a duplicate when the same body came just before. */
function duplicateOf(state: KeyState, sent: SentCreate, at: number): string | undefined {
  const creates = state.creates
  // The first create of a key: an array of exactly its three numbers (a push onto an
  // empty one would reserve room for 17).
  if (!creates) {
    state.creates = [sent.hash, sent.length, at]
    return undefined
  }
  let words: string | undefined
  for (let index = 0; index < creates.length; index += 3) {
    const since = at - (creates[index + 2] as number)
    if (
      creates[index] === sent.hash &&
      creates[index + 1] === sent.length &&
      since >= 0 &&
      since <= DUPLICATE_WINDOW_MS
    ) {
      words = `The latest came ${seconds(since)} after the first.`
      break
    }
  }
  if (creates.length >= CREATES_KEPT * 3) creates.splice(0, 3)
  creates.push(sent.hash, sent.length, at)
  return words
}

/** Where a body of hash and length is in a list of (hash, length, time) triples, or -1. */
function findBody(list: number[], hash: number, length: number): number {
  for (let index = 0; index < list.length; index += 3) {
    if (list[index] === hash && list[index + 1] === length) return index
  }
  return -1
}

/**
 * A body's hash and length: its bytes as sent, or (where there are none) the journal's
 * text. FNV-1a, 32 bits: two bodies are "the same" when hash and length agree. A
 * collision would only add a finding about a create, so a cryptographic hash (not in
 * every runtime without async) is not needed.
 */
export function bodyHash(bytes: Uint8Array | undefined, text: string): [number, number] {
  let hash = 0x811c9dc5
  if (bytes) {
    for (const byte of bytes) hash = Math.imul(hash ^ byte, 0x01000193)
    return [hash >>> 0, bytes.byteLength]
  }
  for (let index = 0; index < text.length; index++) {
    hash = Math.imul(hash ^ text.charCodeAt(index), 0x01000193)
  }
  return [hash >>> 0, text.length]
}
