import { expect, test } from 'vitest'
import { createSandbox } from '../core/sandbox.js'
import { formatBanner, type BannerInfo } from './banner.js'
import { listenOrigins } from './listen-addresses.js'

const paint = (_code: number, text: string) => text
const state = createSandbox({ seed: 42, count: 3 }).state()
const info: BannerInfo = {
  origin: 'http://127.0.0.1:4010',
  version: '0.0.0',
  data: '3 pets',
  watching: [],
  openApi: true,
  demo: true,
}
const interfaces = {
  lo: [
    { address: '127.0.0.1', family: 'IPv4' },
    { address: '::1', family: 'IPv6' },
  ],
  eth0: [
    { address: '192.168.1.20', family: 'IPv4' },
    { address: 'fe80::1', family: 'IPv6' },
    { address: '2001:db8::20', family: 'IPv6' },
  ],
} as unknown as ReturnType<typeof import('node:os').networkInterfaces>

test('0.0.0.0 shows every IPv4 address of the machine, loopback first; :: every address', () => {
  expect(listenOrigins('0.0.0.0', 4010, interfaces)).toEqual([
    'http://127.0.0.1:4010',
    'http://192.168.1.20:4010',
  ])
  expect(listenOrigins('::', 4010, interfaces)).toEqual([
    'http://127.0.0.1:4010',
    'http://[::1]:4010',
    'http://192.168.1.20:4010',
    'http://[2001:db8::20]:4010',
  ])
  expect(listenOrigins('192.168.1.20', 4010, interfaces)).toEqual([
    'http://192.168.1.20:4010',
  ])
})

test('a bind beyond loopback is loud: the real addresses, the token in the links, a warning', () => {
  const text = formatBanner(
    state,
    {
      ...info,
      access: {
        exposed: true,
        origins: ['http://127.0.0.1:4010', 'http://192.168.1.20:4010'],
        controlToken: 'tok',
      },
    },
    'pretty',
    false,
    paint,
  )
  expect(text).toMatch(
    /Network\s+http:\/\/127\.0\.0\.1:4010\/v1 · http:\/\/192\.168\.1\.20:4010\/v1/,
  )
  expect(text).toContain('http://127.0.0.1:4010/?token=tok')
  expect(text).toMatch(/Token\s+tok \(X-Sandbox-Control-Token/)
  expect(text).toMatch(
    /⚠ Listening beyond loopback: anyone who reaches .*192\.168\.1\.20/,
  )
  const json = JSON.parse(
    formatBanner(
      state,
      { ...info, access: { exposed: true, origins: [], controlToken: 'tok' } },
      'json',
      false,
      paint,
    ),
  )
  expect(json).toMatchObject({ exposed: true, controlToken: 'tok' })
})

test('--control-token off beyond loopback warns that the control API is open', () => {
  const access = {
    exposed: true,
    origins: ['http://10.0.0.5:4010'],
    controlToken: undefined,
  }
  const text = formatBanner(state, { ...info, access }, 'pretty', false, paint)
  expect(text).toMatch(/⚠ --control-token off: the control API \(\/__sandbox\) is open/)
  expect(text).not.toContain('?token=')
  expect(formatBanner(state, { ...info, access }, 'pretty', true, paint)).toMatch(
    /--control-token off/,
  )
})

test('on loopback without a token the banner is as before', () => {
  const text = formatBanner(state, info, 'pretty', false, paint)
  expect(text).not.toMatch(/Token|Network|⚠/)
})
