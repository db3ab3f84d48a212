import { describe, expect, it } from 'vitest'
import { SessionRegistry, type SessionEntry } from './sessions.js'

interface Made extends SessionEntry {
  disposed: boolean
}

function registry(max: number, ttlMs: number) {
  let now = 0
  const disposed: string[] = []
  const made = new SessionRegistry<Made>(
    (id, at) => {
      const session: Made = {
        id,
        createdAt: at,
        lastUsedAt: at,
        disposed: false,
        dispose() {
          session.disposed = true
          disposed.push(id)
        },
      }
      return session
    },
    () => now,
    max,
    ttlMs,
  )
  return {
    made,
    disposed,
    advance: (ms: number) => (now += ms),
    ids: () => made.list().map((session) => session.id),
  }
}

describe('SessionRegistry', () => {
  it('keeps sessions least recently used first, a use moving its session to the end', () => {
    const { made, ids } = registry(10, 1_000)
    for (const id of ['a', 'b', 'c', 'd']) made.use(id)
    expect(made.use('b').created).toBe(false)
    made.use('a')
    expect(ids()).toEqual(['c', 'd', 'b', 'a'])
    made.use('a')
    expect(ids()).toEqual(['c', 'd', 'b', 'a'])
  })

  it('evicts the least recently used when full, and disposes of it', () => {
    const { made, disposed, ids } = registry(3, 1_000)
    for (const id of ['a', 'b', 'c']) made.use(id)
    made.use('a')
    expect(made.use('d').created).toBe(true)
    expect(ids()).toEqual(['c', 'a', 'd'])
    expect(disposed).toEqual(['b'])
    expect(made.peek('b')).toBeUndefined()
    expect(made.use('b').created).toBe(true)
    expect(disposed).toEqual(['b', 'c'])
  })

  it('makes an expired session anew, and drops expired ones before making another', () => {
    const { made, disposed, advance, ids } = registry(10, 1_000)
    const first = made.use('a').session
    advance(600)
    made.use('b')
    advance(600)
    expect(made.peek('a')).toBeUndefined()
    expect(ids()).toEqual(['b'])
    const again = made.use('a')
    expect(again.created).toBe(true)
    expect(again.session).not.toBe(first)
    expect(first.disposed).toBe(true)
    advance(1_001)
    made.use('c')
    expect(disposed).toEqual(['a', 'b', 'a'])
    expect(made.size).toBe(1)
  })

  it('ends expired sessions at any use, read or sweep, not only when one is made', () => {
    const { made, disposed, advance } = registry(10, 1_000)
    for (const id of ['a', 'b', 'c']) made.use(id)
    advance(500)
    made.use('d')
    advance(600)
    // a, b and c have expired: what they held goes at once, whatever is asked.
    made.sweep()
    expect(disposed).toEqual(['a', 'b', 'c'])
    expect(made.size).toBe(1)
    made.use('d')
    advance(1_001)
    expect(made.peek('x')).toBeUndefined()
    expect(disposed).toEqual(['a', 'b', 'c', 'd'])
    expect(made.size).toBe(0)
    made.use('e')
    advance(1_001)
    made.use('f')
    expect(disposed.at(-1)).toBe('e')
    expect(made.size).toBe(1)
  })

  it('ends the expired sessions a list passes, where an idle time set back left them behind live ones', () => {
    const { made, disposed, advance } = registry(10, 1_000)
    advance(5_000)
    made.use('a')
    advance(-4_000)
    made.use('b')
    advance(2_500)
    // a is live (last used 1,500 ago), b expired (2,500 ago) behind it.
    expect(made.list().map((session) => session.id)).toEqual(['a'])
    expect(disposed).toEqual(['b'])
    expect(made.size).toBe(1)
  })

  it('ends a live session only', () => {
    const { made, advance } = registry(10, 1_000)
    made.use('a')
    made.use('b')
    expect(made.delete('a')).toBe(true)
    expect(made.delete('a')).toBe(false)
    advance(1_001)
    expect(made.delete('b')).toBe(false)
    expect(made.list()).toEqual([])
  })

  it('agrees with a plain list of ids on random uses, expiries and deletes', () => {
    let seed = 7
    const random = (n: number) => {
      seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31
      return seed % n
    }
    const { made, advance } = registry(5, 50)
    let now = 0
    const model: { id: string; at: number }[] = []
    const live = () => model.filter((entry) => now - entry.at <= 50)
    for (let step = 0; step < 5_000; step++) {
      const id = `s${random(9)}`
      const action = random(10)
      if (action === 0) {
        const ms = random(30)
        advance(ms)
        now += ms
      } else if (action === 1) {
        const wasLive = live().some((entry) => entry.id === id)
        expect(made.delete(id)).toBe(wasLive)
        if (wasLive)
          model.splice(
            model.findIndex((entry) => entry.id === id),
            1,
          )
      } else {
        const index = model.findIndex((entry) => entry.id === id)
        const known = index >= 0 && now - (model[index]?.at ?? -Infinity) <= 50
        if (index >= 0) model.splice(index, 1)
        if (!known) {
          // Expired ones lead; then the least recently used while full.
          const expired = () => now - (model[0]?.at ?? now) > 50
          while (model.length > 0 && (model.length >= 5 || expired())) model.shift()
        }
        model.push({ id, at: now })
        expect(made.use(id).created).toBe(!known)
      }
      expect(made.list().map((session) => session.id)).toEqual(live().map((e) => e.id))
    }
  })
})
