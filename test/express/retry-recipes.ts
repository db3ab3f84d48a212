import axios, { type AxiosError } from 'axios'
import axiosRetry from 'axios-retry'
import fetchRetry from 'fetch-retry'
import got from 'got'
import ky from 'ky'
import pRetry from 'p-retry'
import { Agent, RetryAgent, request } from 'undici'

// The retry recipes of docs/report-card.md#retry-recipes, as code: for each library, the
// configuration that honours Retry-After, backs off and does not re-send creates blindly
// (`recommended`), and the one the report card flags (`naive`). Each builds a small
// client of the Pet Adoption Service; retry-recipes.test.ts runs both in the scenarios
// rate-limit-countdown, rate-limited and flaky-network. Keep the two in step with the docs.

/** A pet to create. */
export interface NewPet {
  name: string
  categoryId: number
}

/** The two calls the recipes are graded on, each answering its status or rejecting as its library does. */
export interface PetsClient {
  /** GET /v1/pets?limit=1 (with extra headers, such as X-Sandbox-Scenario). */
  list(headers?: Record<string, string>): Promise<number>
  /** POST /v1/pets. */
  create(pet: NewPet): Promise<number>
  /** Closes what the client holds open (undici's agent). */
  close(): Promise<void>
}

/** What a recipe needs: the server's origin, the API key, and the fetch to wrap. */
export interface RecipeTarget {
  origin: string
  key: string
}

export type Recipe = (target: RecipeTarget) => PetsClient

/** A 429, or a 5xx other than 501: the answers that say "try again". */
export const retryable = (status: number) =>
  status === 429 || (status >= 500 && status !== 501)

/** The Retry-After of an answer, in milliseconds (0 when it has none). */
export function retryAfterMs(headers: { get(name: string): string | null }): number {
  const seconds = Number(headers.get('retry-after'))
  return Number.isFinite(seconds) && seconds > 0 ? seconds * 1000 : 0
}

const nothing = async () => {}

function json(target: RecipeTarget, extra: Record<string, string> = {}) {
  return { authorization: `Bearer ${target.key}`, ...extra }
}

// ky: honours Retry-After on 429, 413 and 503 (retry.afterStatusCodes) and never
// retries POST (retry.methods), out of the box. Retry more than twice (retry.limit) and
// leave retry.maxRetryAfter unset: ky waits min(Retry-After, maxRetryAfter), so a cap
// below the Retry-After retries early instead of giving up.
export const ky_: Record<'recommended' | 'naive', Recipe> = {
  recommended: (target) =>
    kyClient(target, ky.create({ retry: { limit: 4 }, headers: json(target) })),
  naive: (target) =>
    kyClient(
      target,
      ky.create({
        retry: { limit: 5, methods: ['get', 'post'], maxRetryAfter: 10_000 },
        headers: json(target),
      }),
    ),
}

function kyClient(target: RecipeTarget, api: typeof ky): PetsClient {
  return {
    list: async (headers) =>
      (await api.get(`${target.origin}/v1/pets?limit=1`, { headers: headers ?? {} }))
        .status,
    create: async (pet) =>
      (await api.post(`${target.origin}/v1/pets`, { json: pet })).status,
    close: nothing,
  }
}

// got: honours Retry-After (up to retry.maxRetryAfter, by default timeout.request; a
// longer one cancels the retry) and backs off 1 s, 2 s, 4 s after drops; POST is not in
// retry.methods. Keep retry.calculateDelay returning computedValue.
export const got_: Record<'recommended' | 'naive', Recipe> = {
  recommended: (target) =>
    gotClient(target, got.extend({ retry: { limit: 4 }, headers: json(target) })),
  naive: (target) =>
    gotClient(
      target,
      got.extend({
        // "Retry every second": replaces the Retry-After and the backoff with 1 s.
        retry: {
          limit: 5,
          calculateDelay: ({ computedValue }) => (computedValue ? 1000 : 0),
        },
        headers: json(target),
      }),
    ),
}

function gotClient(target: RecipeTarget, api: typeof got): PetsClient {
  return {
    list: async (headers) =>
      (await api.get(`${target.origin}/v1/pets?limit=1`, { headers: headers ?? {} }))
        .statusCode,
    create: async (pet) =>
      (await api.post(`${target.origin}/v1/pets`, { json: pet })).statusCode,
    close: nothing,
  }
}

// axios + axios-retry: the default retryCondition retries a request that got no answer
// whatever its method, so a dropped POST is sent again blindly, and the default
// retryDelay retries it at once. Retry idempotent requests and 429s, with
// exponentialDelay (which waits at least the Retry-After).
export const axiosRetry_: Record<'recommended' | 'naive', Recipe> = {
  recommended: (target) => {
    const client = axios.create({ headers: json(target) })
    axiosRetry(client, {
      retries: 4,
      retryDelay: axiosRetry.exponentialDelay,
      retryCondition: (error) =>
        axiosRetry.isIdempotentRequestError(error) || error.response?.status === 429,
    })
    return axiosClient(target, client)
  },
  naive: (target) => {
    const client = axios.create({ headers: json(target) })
    axiosRetry(client, { retries: 3 })
    return axiosClient(target, client)
  },
}

function axiosClient(
  target: RecipeTarget,
  client: ReturnType<typeof axios.create>,
): PetsClient {
  return {
    list: async (headers) =>
      (await client.get(`${target.origin}/v1/pets?limit=1`, { headers: headers ?? {} }))
        .status,
    create: async (pet) => (await client.post(`${target.origin}/v1/pets`, pet)).status,
    close: nothing,
  }
}

/** An answer p-retry should retry: a 429 or a 5xx, with its Retry-After. */
export class RetryableAnswer extends Error {
  constructor(readonly response: Response) {
    super(`${response.status} ${response.statusText}`)
  }
}

// p-retry: knows nothing of HTTP. Throw on a 429 or 5xx, wait out its Retry-After in
// onFailedAttempt (p-retry's own backoff, 1 s, 2 s, 4 s, comes on top), and let
// shouldRetry refuse a create that got no answer.
export const pRetry_: Record<'recommended' | 'naive', Recipe> = {
  recommended: (target) =>
    fetchClient(target, (url, init) =>
      pRetry(
        async () => {
          const response = await fetch(url, init)
          if (retryable(response.status)) throw new RetryableAnswer(response)
          return response
        },
        {
          retries: 4,
          onFailedAttempt: async ({ error }) => {
            const wait =
              error instanceof RetryableAnswer ? retryAfterMs(error.response.headers) : 0
            if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait))
          },
          shouldRetry: ({ error }) =>
            error instanceof RetryableAnswer || init.method === 'GET',
        },
      ),
    ),
  naive: (target) =>
    fetchClient(target, (url, init) =>
      pRetry(
        async () => {
          const response = await fetch(url, init)
          if (!response.ok) throw new Error(`${response.status}`)
          return response
        },
        { retries: 5 },
      ),
    ),
}

type Send = (url: string, init: RequestInit & { method: string }) => Promise<Response>

function fetchClient(target: RecipeTarget, send: Send): PetsClient {
  return {
    list: async (headers) =>
      (
        await send(`${target.origin}/v1/pets?limit=1`, {
          method: 'GET',
          headers: json(target, headers),
        })
      ).status,
    create: async (pet) =>
      (
        await send(`${target.origin}/v1/pets`, {
          method: 'POST',
          headers: json(target, { 'content-type': 'application/json' }),
          body: JSON.stringify(pet),
        })
      ).status,
    close: nothing,
  }
}

// fetch-retry: by default retries every request that got no answer, POST included,
// 3 times 1 s apart, and no status at all. retryOn and retryDelay as functions: retry
// 429 and 5xx after their Retry-After, drops of reads only, backing off.
const fetchWithRetry = fetchRetry(fetch)

/** fetch-retry's retryOn for a request: `safe` ones (GET) are retried after a drop too. */
export const retryOn =
  (safe: boolean) => (attempt: number, error: Error | null, response: Response | null) =>
    attempt < 4 && (response ? retryable(response.status) : safe && error !== null)

/** fetch-retry's retryDelay: the Retry-After when the answer has one, else 0.5 s, 1 s, 2 s, ... */
export const retryDelay = (
  attempt: number,
  _error: Error | null,
  response: Response | null,
) => (response && retryAfterMs(response.headers)) || 500 * 2 ** attempt

export const fetchRetry_: Record<'recommended' | 'naive', Recipe> = {
  recommended: (target) =>
    fetchClient(target, (url, init) =>
      fetchWithRetry(url, {
        ...init,
        retryOn: retryOn(init.method === 'GET'),
        retryDelay,
      }),
    ),
  naive: (target) =>
    fetchClient(target, (url, init) =>
      fetchWithRetry(url, { ...init, retries: 3, retryOn: [429, 503] }),
    ),
}

// undici's RetryAgent: waits min(Retry-After, maxTimeout), and maxTimeout is 30 s by
// default, so a Retry-After over 30 s is retried early. Raise maxTimeout above the
// longest Retry-After the API sends (a minute window: 60 s; a ban: 300 s by default).
// POST is not in its methods.
export const undici_: Record<'recommended' | 'naive', Recipe> = {
  recommended: (target) =>
    undiciClient(target, new RetryAgent(new Agent(), { maxTimeout: 300_000 })),
  naive: (target) => undiciClient(target, new RetryAgent(new Agent())),
}

function undiciClient(target: RecipeTarget, dispatcher: RetryAgent): PetsClient {
  const answer = async (sent: ReturnType<typeof request>) => {
    const response = await sent
    await response.body.dump()
    return response.statusCode
  }
  return {
    list: (headers) =>
      answer(
        request(`${target.origin}/v1/pets?limit=1`, {
          dispatcher,
          headers: json(target, headers),
        }),
      ),
    create: (pet) =>
      answer(
        request(`${target.origin}/v1/pets`, {
          dispatcher,
          method: 'POST',
          headers: json(target, { 'content-type': 'application/json' }),
          body: JSON.stringify(pet),
        }),
      ),
    close: () => dispatcher.close(),
  }
}

/** Every library's recipes, by the name the docs give it. */
export const RECIPES = {
  ky: ky_,
  got: got_,
  'axios-retry': axiosRetry_,
  'p-retry': pRetry_,
  'fetch-retry': fetchRetry_,
  undici: undici_,
}

/** Whether a client's call failed without an answer (the connection dropped). */
export function noAnswer(error: unknown): boolean {
  const axiosError = error as Partial<AxiosError>
  if (axiosError.isAxiosError) return axiosError.response === undefined
  const named = error as {
    name?: string
    code?: string
    response?: unknown
    statusCode?: number
  }
  // ky's and got's HTTPError, got's and p-retry's errors with a response, undici's
  // RequestRetryError (a statusCode): an answer came.
  if (named.name === 'HTTPError' || named.response !== undefined) return false
  if (named.statusCode !== undefined) return false
  return error instanceof TypeError || named.code !== undefined
}

/**
 * Creates a pet without re-sending a create blindly: when the create got no answer, asks
 * GET /v1/pets first (in production the pet may have been made) and sends it again only
 * if the pet is not there. The sandbox never makes a pet for a dropped request, so here
 * the list never has it; a real client looks for it by a field it chose.
 */
export async function createOnce(client: PetsClient, pet: NewPet): Promise<number> {
  try {
    return await client.create(pet)
  } catch (error) {
    if (!noAnswer(error)) throw error
    await client.list()
    return client.create(pet)
  }
}
