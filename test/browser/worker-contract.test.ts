import { execFileSync } from 'node:child_process'
import { existsSync } from 'node:fs'
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { chromium, type Browser, type Page } from 'playwright-core'
import { inject } from 'vitest'
import { defineCarrySuite } from '../contract/carry-suite.js'
import { defineReportSuite } from '../contract/report-suite.js'
import { defineDefinedScenariosSuite } from '../contract/defined-scenarios-suite.js'
import { defineFaultsSuite } from '../contract/faults-suite.js'
import { defineRequestIdsSuite } from '../contract/request-ids-suite.js'
import { defineContractSuite, type ContractTarget } from '../contract/suite.js'
import { browserPath, LAUNCH_ARGS } from './find-browser.js'
import { demoDir, serveDemo } from './serve-demo.js'

// The contract suite against the browser runtime: the demo page (dist/demo, ?mode=worker,
// seed 42) in Chromium, where msw's service worker answers. The suite speaks HTTP to a
// loopback relay that replays each request as the page's own fetch, so the checks are
// the ones the node and express runtimes pass, answered by setupSandboxWorker. (The
// odd-requests suite stays on node and express: a browser's fetch cannot send TRACE or a
// malformed escape.)

const root = fileURLToPath(new URL('../..', import.meta.url))

/** Headers the relay leaves to Node: the body it writes is the decoded text. */
const HOP_BY_HOP = new Set(['content-length', 'content-encoding', 'transfer-encoding'])

function listen(server: Server): Promise<string> {
  return new Promise((done) => {
    server.listen(0, '127.0.0.1', () => {
      done(`http://127.0.0.1:${(server.address() as AddressInfo).port}`)
    })
  })
}

async function close(server: Server | undefined) {
  if (!server?.listening) return
  server.closeAllConnections()
  await new Promise((done) => server.close(done))
}

type Relayed = { status: number; headers: Array<[string, string]>; body: string }

/**
 * Replays every request it gets as a fetch of `page`, and answers with the reply. The
 * page's fetch goes on when the relay's client gives up (a test ended, its requests
 * aborted): `idle` resolves once every fetch the page was asked for has ended.
 */
function relayTo(page: Page): { server: Server; idle(): Promise<void> } {
  const pending = new Set<Promise<unknown>>()
  const idle = async () => {
    while (pending.size > 0) await Promise.allSettled([...pending])
  }
  const server = createServer(async (request, response) => {
    const chunks: Buffer[] = []
    for await (const chunk of request) chunks.push(chunk as Buffer)
    const headers: Record<string, string> = {}
    for (const [name, value] of Object.entries(request.headers)) {
      if (typeof value === 'string' && name !== 'host' && name !== 'connection')
        headers[name] = value
    }
    try {
      const replying = page.evaluate(
        async ({ method, path, headers, body }): Promise<Relayed> => {
          const answer = await fetch(path, { method, headers, body, cache: 'no-store' })
          return {
            status: answer.status,
            headers: [...answer.headers],
            body: await answer.text(),
          }
        },
        {
          method: request.method ?? 'GET',
          path: request.url ?? '/',
          headers,
          body: chunks.length > 0 ? Buffer.concat(chunks).toString('utf8') : undefined,
        },
      )
      pending.add(replying)
      const reply = await replying.finally(() => pending.delete(replying))
      for (const [name, value] of reply.headers)
        if (!HOP_BY_HOP.has(name)) response.setHeader(name, value)
      response.writeHead(reply.status).end(reply.body)
    } catch (error) {
      // The page's fetch failed as a network error (a dropped connection, docs/faults.md):
      // the relay's client gets none of an answer either.
      if (/TypeError: Failed to fetch/.test(String(error))) return void response.destroy()
      response.writeHead(502, { 'content-type': 'text/plain' }).end(String(error))
    }
  })
  return { server, idle }
}

/**
 * Opens the demo in worker mode in a Chromium of its own and relays to it; each suite
 * below starts one, so closing one leaves the other's alone.
 */
async function startWorker(): Promise<ContractTarget> {
  if (!existsSync(join(demoDir, 'index.html'))) {
    execFileSync(process.execPath, [join(root, 'scripts/build-demo.js')], {
      stdio: 'inherit',
    })
  }
  const browser: Browser = await chromium.launch({
    executablePath: browserPath(inject('browserSearch')),
    args: LAUNCH_ARGS,
  })
  let demo: Server | undefined
  let relay: Server | undefined
  const stop = async () => {
    await close(relay)
    await close(demo)
    await browser.close()
  }
  try {
    const served = await serveDemo()
    demo = served.server
    const page = await (await browser.newContext()).newPage()
    await page.goto(`${served.origin}/?mode=worker&seed=42&quiet`)
    await page.waitForSelector('body:is([data-ready="true"], [data-ready="failed"])')
    const ready = await page.locator('body').getAttribute('data-ready')
    if (ready !== 'true')
      throw new Error(
        `The demo did not start: ${await page.locator('#runtime').innerText()}`,
      )
    const relaying = relayTo(page)
    relay = relaying.server
    return { origin: await listen(relay), close: stop, idle: relaying.idle }
  } catch (error) {
    await stop()
    throw error
  }
}

const RUNTIME = 'browser runtime (petstore-sandbox/browser, service worker)'
defineContractSuite(RUNTIME, startWorker)
defineRequestIdsSuite(RUNTIME, startWorker)
defineFaultsSuite(RUNTIME, startWorker)
defineReportSuite(RUNTIME, startWorker)
defineDefinedScenariosSuite(RUNTIME, startWorker)
defineCarrySuite(RUNTIME, startWorker, false)
