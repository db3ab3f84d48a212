import { afterAll, afterEach, expect, test } from 'vitest'
import { spawn } from 'node:child_process'
import {
  FREE,
  killAll,
  removeCliBuild,
  runCli,
  startServer,
  track,
} from '../cli/cli-process.js'
import { codeOf, send } from './http.js'

// The standalone server's flags for who may use it (docs/security.md), as a process.

afterEach(killAll)
afterAll(removeCliBuild)

const portOf = (origin: string) => Number(new URL(origin).port)
const EVIL = 'https://evil.example'

test('a page of another site cannot reset the server; --cors-origin lets one origin in', async () => {
  const { origin } = await startServer(['--cors-origin', 'https://app.example.com'])
  const port = portOf(origin)
  const created = await send(
    port,
    'POST',
    '/v1/pets',
    { ...FREE, 'content-type': 'application/json' },
    '{"name":"Rex","categoryId":1}',
  )
  expect(created.status).toBe(201)
  const attack = await send(
    port,
    'POST',
    '/__sandbox/reset',
    { origin: EVIL, 'content-type': 'text/plain' },
    'x',
  )
  expect(attack.status).toBe(403)
  expect(codeOf(attack)).toBe('forbidden_origin')
  const pet = await send(port, 'GET', '/v1/pets/51', FREE)
  expect(pet.status).toBe(200)

  const allowed = await send(port, 'GET', '/__sandbox', {
    origin: 'https://app.example.com',
  })
  expect(allowed.status).toBe(200)
  expect(allowed.headers['access-control-allow-origin']).toBe('https://app.example.com')
  const other = await send(port, 'GET', '/__sandbox', {
    origin: 'https://other.example.com',
  })
  expect(other.status).toBe(403)
})

test('--allowed-host answers a name of the user’s; other names are 403 forbidden_host', async () => {
  const { origin } = await startServer([
    '--allowed-host',
    'box.local',
    '--allowed-host',
    '.dev.example',
  ])
  const port = portOf(origin)
  for (const host of ['box.local', 'api.dev.example:4010', `127.0.0.1:${port}`]) {
    expect(
      (await send(port, 'GET', '/v1/pets?limit=1', { host, ...FREE })).status,
      host,
    ).toBe(200)
  }
  const rebound = await send(port, 'GET', '/', { host: 'evil.example' })
  expect(rebound.status).toBe(403)
  expect(JSON.parse(rebound.body).message).toContain('--allowed-host evil.example')
})

test('--control-token locks the control API and the banner shows it', async () => {
  const { cli, origin } = await startServer(['--control-token', 'tok-abc'])
  const port = portOf(origin)
  const ready = JSON.parse(await cli.line(/"type":"ready"/)) as { controlToken?: string }
  expect(ready.controlToken).toBe('tok-abc')
  expect(codeOf(await send(port, 'GET', '/__sandbox'))).toBe('control_token_required')
  expect(
    codeOf(
      await send(port, 'GET', '/__sandbox', { 'x-sandbox-control-token': 'tok-abd' }),
    ),
  ).toBe('invalid_control_token')
  expect(
    (await send(port, 'GET', '/__sandbox', { 'x-sandbox-control-token': 'tok-abc' }))
      .status,
  ).toBe(200)
})

test('the token comes from PETSTORE_SANDBOX_CONTROL_TOKEN too, and the pretty banner links with it', async () => {
  const { runner } = await runnerPath()
  const cli = track(
    spawn(process.execPath, [runner, '--port', '0', '--host', '127.0.0.1'], {
      env: { ...process.env, NO_COLOR: '1', PETSTORE_SANDBOX_CONTROL_TOKEN: 'from-env' },
      stdio: ['ignore', 'pipe', 'pipe'],
    }),
  )
  const overview = await cli.line(/Overview/)
  expect(overview).toMatch(/http:\/\/127\.0\.0\.1:\d+\/\?token=from-env/)
  const token = await cli.line(/Token/)
  expect(token).toContain('from-env')
  const port = Number(/127\.0\.0\.1:(\d+)/.exec(overview)?.[1])
  expect((await send(port, 'GET', '/__sandbox')).status).toBe(401)
  expect(
    (await send(port, 'GET', '/__sandbox', { 'x-sandbox-control-token': 'from-env' }))
      .status,
  ).toBe(200)
})

test('--control-token off: no token is required or shown', async () => {
  const { origin, cli } = await startServer(['--control-token', 'off'])
  const ready = JSON.parse(await cli.line(/"type":"ready"/)) as Record<string, unknown>
  expect(ready.controlToken).toBeUndefined()
  expect((await send(portOf(origin), 'POST', '/__sandbox/reset')).status).toBe(200)
})

test('a bad --cors-origin or --allowed-host is one line and exit code 2', async () => {
  for (const args of [
    ['--cors-origin', 'https://app.example.com/path'],
    ['--allowed-host', 'http://box.local'],
    ['--cors-origin'],
  ]) {
    const cli = await runCli(args)
    expect((await cli.exited).code, args.join(' ')).toBe(2)
    expect(cli.stderr()).toMatch(new RegExp(`--${args[0]?.slice(2)}`))
  }
})

/** The bundled CLI runner of cli-process.ts (built by runCli). */
async function runnerPath() {
  const probe = await runCli(['--version'])
  await probe.exited
  const args = probe.child.spawnargs
  return { runner: args[1] as string }
}
