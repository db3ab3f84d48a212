// faker's seeded random numbers, vendored from @faker-js/faker 10 (MIT licence,
// Copyright 2022-present Faker contributors; src/internal/mersenne.ts and
// src/utils/mersenne.ts): MT19937 seeded as faker.seed(number) seeds it, and the 53-bit
// floats that faker.number.int and faker.number.float draw from. Seeding needed faker
// only for these few lines, and faker was most of the browser entry's weight (issue
// 16); seed.test.ts holds the output to faker's own, seed by seed.

const N = 624
const M = 397
const MATRIX_A = 0x9908b0df
const UPPER_MASK = 0x80000000
const LOWER_MASK = 0x7fffffff

function initialState(seed: number): number[] {
  const state = new Array<number>(N)
  state[0] = seed
  for (let index = 1; index !== N; ++index) {
    const previous = state[index - 1]! ^ (state[index - 1]! >>> 30)
    state[index] = Math.trunc(Math.imul(1812433253, previous) + index)
  }
  return state
}

function twist(state: number[]): number[] {
  for (let index = 0; index !== N - M; ++index) {
    const y = (state[index]! & UPPER_MASK) + (state[index + 1]! & LOWER_MASK)
    state[index] = state[index + M]! ^ (y >>> 1) ^ (-(y & 1) & MATRIX_A)
  }
  for (let index = N - M; index !== N - 1; ++index) {
    const y = (state[index]! & UPPER_MASK) + (state[index + 1]! & LOWER_MASK)
    state[index] = state[index + M - N]! ^ (y >>> 1) ^ (-(y & 1) & MATRIX_A)
  }
  const y = (state[N - 1]! & UPPER_MASK) + (state[0]! & LOWER_MASK)
  state[N - 1] = state[M - 1]! ^ (y >>> 1) ^ (-(y & 1) & MATRIX_A)
  return state
}

/** A seeded source of floats in [0, 1), the same sequence as faker's for that seed. */
export interface SeededRandom {
  /** The next float in [0, 1), with 53 random bits (faker's default randomizer). */
  next(): number
}

/** faker's `new Faker(...).seed(seed)` randomizer, for a number seed. */
export function createSeededRandom(seed: number): SeededRandom {
  let state = twist(initialState(seed))
  let index = 0
  const nextU32 = (): number => {
    let y = state[index]!
    y ^= state[index]! >>> 11
    y ^= (y << 7) & 0x9d2c5680
    y ^= (y << 15) & 0xefc60000
    y ^= y >>> 18
    if (++index >= N) {
      state = twist(state)
      index = 0
    }
    return y >>> 0
  }
  return {
    next() {
      const high = nextU32() >>> 5
      const low = nextU32() >>> 6
      return (high * 67108864 + low) * (1.0 / 9007199254740992.0)
    },
  }
}
