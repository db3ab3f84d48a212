import { expect, test } from 'vitest'
import { validateListQuery } from './validation.js'

const limitOf = (query: string) => validateListQuery(new URLSearchParams(query))

test('limit is read as a decimal integer from 1 to 100, leading zeros or not', () => {
  for (const [raw, value] of [
    ['1', 1],
    ['01', 1],
    ['0001', 1],
    ['100', 100],
    ['0000000000000000000050', 50],
  ] as const)
    expect(limitOf(`limit=${raw}`), raw).toEqual({ ok: true, value: { limit: value } })
  for (const raw of ['0', '000', '101', '1e2', '1.0', '-1', ' 1', '0x10', ''])
    expect(limitOf(`limit=${encodeURIComponent(raw)}`), raw).toMatchObject({
      ok: false,
      message: expect.stringMatching(/limit must be an integer from 1 to 100/),
    })
})
