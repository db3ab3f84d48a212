import { expect, test } from 'vitest'
import { createSandbox, SandboxError } from 'petstore-sandbox'
import { portOf } from '../../src/core/pipeline/sandbox-port.js'

const KEY = { authorization: 'Bearer sandbox-free-key' }
/** A path and query of 12 KB, as a page could send in every request of a flood. */
const LONG = `/v1/pets?status=available&q=${'a'.repeat(12_000)}`

/** A GET through the sandbox's one port, as every runtime sends it, in a session. */
async function get(
  sandbox: ReturnType<typeof createSandbox>,
  path: string,
  session?: string,
) {
  const headers: Record<string, string> = { ...KEY }
  if (session !== undefined) headers['x-sandbox-session'] = session
  const reply = await portOf(sandbox).handle(
    new Request(`https://x.test${path}`, { headers }),
  )
  return reply
}

/** The bytes every world's journal counts: the journals' own accounting. */
function journalBytes(sandbox: ReturnType<typeof createSandbox>) {
  let bytes = sandbox.journal.bytes
  for (const { id } of sandbox.sessions()) bytes += sandbox.session(id).journal.bytes
  return bytes
}

test('the journals of all sessions stay within maxJournalBytes, and a quiet session keeps its last 10', async () => {
  const maxJournalBytes = 1024 * 1024
  const sandbox = createSandbox({
    seed: 42,
    count: 5,
    maxJournalBytes,
    clock: { now: '2027-01-01T00:00:00Z', frozen: true },
  })
  // The developer's session, used a little, before a neighbour floods the server.
  for (let index = 0; index < 12; index++)
    await get(sandbox, `/v1/pets?limit=${index + 1}`, 'alice')
  for (let index = 0; index < 3; index++) await get(sandbox, '/v1/pets')
  // 20 sessions x 100 requests of 12 KB paths: some 24 MB of paths without a budget.
  for (let round = 0; round < 100; round++) {
    for (let flooder = 0; flooder < 20; flooder++)
      await get(sandbox, LONG, `flood-${flooder}`)
  }

  const total = journalBytes(sandbox)
  expect(total).toBeLessThanOrEqual(maxJournalBytes)
  // The budget is used, not emptied: what went was only what had to.
  expect(total).toBeGreaterThan(maxJournalBytes - 4096)
  // Every path was cut at 2 KiB with a mark.
  const flooded = sandbox.session('flood-0').journal.recent()
  expect(flooded.length).toBeGreaterThanOrEqual(10)
  expect(flooded.length).toBeLessThan(100)
  for (const entry of flooded) {
    expect(entry.path).toBe(`${LONG.slice(0, 2048)}…`)
  }
  // What the journal counts is close to the JSON the control API sends of it (its
  // strings' UTF-8 bytes plus 256 an entry; JSON escapes are not counted), and never
  // below what they hold in memory: the cut path, with its `…`, is held as UTF-16, 2
  // bytes a character, some 2 KiB more than its UTF-8.
  const json = flooded.reduce(
    (sum, entry) => sum + new TextEncoder().encode(JSON.stringify(entry)).length,
    0,
  )
  const counted = sandbox.session('flood-0').journal.bytes
  const utf16Extra = 2 * 2049 - (2048 + 3)
  expect(counted).toBeGreaterThan(json)
  expect(Math.abs(json + flooded.length * utf16Extra - counted) / counted).toBeLessThan(
    0.1,
  )

  // alice's entries were the oldest: they went first, down to her last 10.
  const alice = sandbox.session('alice').journal.recent()
  expect(alice.map((entry) => entry.path)).toEqual(
    Array.from({ length: 10 }, (_, index) => `/v1/pets?limit=${12 - index}`),
  )
  expect(sandbox.journal.recent()).toHaveLength(3)

  // GET /__sandbox/requests shows what is left, and ?after=<id> what came since.
  const listed = await portOf(sandbox).handle(
    new Request('https://x.test/__sandbox/requests?after=10', {
      headers: { 'x-sandbox-session': 'alice' },
    }),
  )
  expect(listed?.status).toBe(200)
  const body = JSON.parse(listed?.text ?? '{}') as { requests: Array<{ id: number }> }
  expect(body.requests.map((entry) => entry.id)).toEqual([12, 11])
})

test('a session that ends gives its journal bytes back', async () => {
  const sandbox = createSandbox({ seed: 42, count: 5 })
  const before = journalBytes(sandbox)
  for (let index = 0; index < 5; index++) await get(sandbox, LONG, 'bob')
  expect(journalBytes(sandbox)).toBeGreaterThan(before + 5 * 2048)
  expect(sandbox.endSession('bob')).toBe(true)
  expect(journalBytes(sandbox)).toBe(before)
})

test('maxJournalBytes is a number of bytes from 0 to 4 GiB', () => {
  for (const maxJournalBytes of [-1, 1.5, Number.NaN, 2 ** 32 + 1, '1000' as never]) {
    expect(() => createSandbox({ maxJournalBytes })).toThrow(SandboxError)
    expect(() => createSandbox({ maxJournalBytes })).toThrow(
      /maxJournalBytes 0 to 4,294,967,296/,
    )
  }
  expect(() => createSandbox({ maxJournalBytes: 0 })).not.toThrow()
  expect(() => createSandbox({ maxJournalBytes: 2 ** 32 })).not.toThrow()
})
