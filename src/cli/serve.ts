import type { Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { resolve } from 'node:path'
import { SandboxError } from '../core/common/errors.js'
import { isLoopbackAddress } from '../core/http/request-trust.js'
import { createSandbox } from '../core/sandbox.js'
import { portOf } from '../core/pipeline/sandbox-port.js'
import { StoreWriteError } from '../core/data/store.js'
import { buildSandboxApp } from '../express/create-sandbox-app.js'
import { HandlerThrewError } from '../express/create-sandbox-middleware.js'
import { listenSandboxApp } from '../express/listen-sandbox-app.js'
import { packageAssets } from '../express/package-assets.js'
import {
  isPath,
  loadFixturesFile,
  loadScenarioFile,
  readSessionFile,
  resolveNodeOptions,
} from '../node/files.js'
import { openFileStore } from '../node/file-store/create-file-store.js'
import { formatBanner } from './banner.js'
import { loadHandlersModule } from './handlers-module.js'
import { cliFastPath } from './fast-path.js'
import { CliError } from './cli-error.js'
import { createPaint, CYAN } from './colors.js'
import { CONTROL_TOKEN_ENV, type ServeFlags } from './flags.js'
import { listenOrigins } from './listen-addresses.js'
import { formatRequest } from './request-log.js'
import { formatReportSummary } from './report-summary.js'
import { watchFiles } from './watch-files.js'

/** How long requests still running at shutdown may finish before their sockets close. */
const GRACE_MS = 2000

/**
 * Starts the standalone sandbox: builds the sandbox from the flags, restores `--persist`,
 * listens, prints the banner and one line per request, reloads watched files, and closes
 * cleanly on SIGINT/SIGTERM. Throws a CliError for anything that stops it starting.
 */
export async function serve(flags: ServeFlags): Promise<void> {
  const out = (line: string) => process.stdout.write(`${line}\n`)
  const warn = (line: string) => process.stderr.write(`petstore-sandbox: ${line}\n`)
  const paint = createPaint(process.stdout)
  const json = flags.logFormat === 'json'

  // The sandbox writes every change through the store: a create's 201 leaves once its
  // pet is in the file, and a failed write is a 507 (and a line here).
  // Locked and read here: another server on the file, or a corrupt file, stops the start.
  const store = flags.persist
    ? openFileStore(flags.persist, { option: '--persist', log: warn })
    : undefined
  const overrides = flags.handlers ? await loadHandlersModule(flags.handlers) : []
  const sandbox = startupStep(() =>
    createSandbox(
      resolveNodeOptions({
        ...(flags.seed === undefined ? {} : { seed: flags.seed }),
        ...(flags.count === undefined ? {} : { count: flags.count }),
        ...(flags.scenario === undefined ? {} : { scenario: flags.scenario }),
        ...(flags.fixtures === undefined ? {} : { fixtures: flags.fixtures }),
        ...(flags.latency === undefined ? {} : { latency: flags.latency }),
        ...(flags.maxPets === undefined ? {} : { maxPets: flags.maxPets }),
        ...(flags.maxTotalPets === undefined ? {} : { maxTotalPets: flags.maxTotalPets }),
        ...(flags.maxJournalBytes === undefined
          ? {}
          : { maxJournalBytes: flags.maxJournalBytes }),
        ...(store === undefined ? {} : { store }),
        ...(overrides.length > 0 ? { handlers: overrides } : {}),
        ...(flags.maxSessions === undefined ? {} : { maxSessions: flags.maxSessions }),
        ...(flags.sessionTtl === undefined
          ? {}
          : { sessionTtlSeconds: flags.sessionTtl }),
      }),
    ),
  )
  await sandbox.ready
  const restored = store ? await store.restored : false
  if (flags.load !== undefined) await loadSession(flags.load, restored)

  // A token given (flag, else environment) is required on any bind; without one, a
  // server bound beyond loopback generates one (docs/security.md).
  const controlToken = flags.controlToken ?? nonEmpty(process.env[CONTROL_TOKEN_ENV])
  const app = buildSandboxApp(
    sandbox,
    {
      ...(flags.corsOrigin === undefined ? {} : { allowedOrigins: flags.corsOrigin }),
      ...(flags.allowedHost === undefined ? {} : { allowedHosts: flags.allowedHost }),
      ...(controlToken === undefined ? {} : { controlToken }),
      onError: (error) =>
        warn(
          error instanceof HandlerThrewError
            ? `${error.message}\n${(error.cause as Error)?.stack ?? String(error.cause)}`
            : `internal error while answering a request: ${(error as Error)?.stack ?? String(error)}`,
        ),
    },
    cliFastPath,
  )
  const server = await listen(app, flags)
  const { port, address } = server.address() as AddressInfo
  const origin = `http://${displayHost(flags.host)}:${port}`
  const exposed = !isLoopbackAddress(address)
  const access = {
    exposed,
    origins: listenOrigins(address, port),
    controlToken: exposed || controlToken !== undefined ? app.controlToken : undefined,
  }

  const stopLog = flags.quiet
    ? () => {}
    : sandbox.onRequest((entry) => out(formatRequest(entry, flags.logFormat, paint)))
  const watched = [
    ...(flags.scenario !== undefined && isPath(flags.scenario) ? [flags.scenario] : []),
    ...(flags.fixtures !== undefined ? [flags.fixtures] : []),
    ...(flags.handlers !== undefined ? [flags.handlers] : []),
  ]
  const watcher = flags.watch
    ? watchFiles(watched, (path) => void reload(path))
    : undefined
  if (flags.watch && watched.length === 0) {
    warn(
      '--watch has nothing to watch: it reloads the files given with --scenario ./file.json, --fixtures and --handlers.',
    )
  }

  // Before the banner: a signal sent as soon as the ready line is read must find the
  // handler (else Node's default ends the process without its clean exit).
  let closing = false
  const shutdown = (signal: NodeJS.Signals) => {
    if (closing) process.exit(130)
    closing = true
    watcher?.close()
    stopLog()
    // Nothing to flush: every acknowledged create is in the --persist file already.
    server.close(() => {
      if (!flags.quiet) {
        for (const line of formatReportSummary(sandbox, flags.logFormat, paint)) out(line)
      }
      if (json) out(JSON.stringify({ type: 'stopped', signal }))
      else if (!flags.quiet)
        out(
          `petstore-sandbox stopped (${signal})${store ? `; state saved to ${store.file}` : ''}`,
        )
      process.exit(0)
    })
    server.closeIdleConnections()
    setTimeout(() => server.closeAllConnections(), GRACE_MS).unref()
  }
  process.on('SIGINT', shutdown)
  process.on('SIGTERM', shutdown)

  const assets = packageAssets()
  const state = sandbox.state()
  out(
    formatBanner(
      state,
      {
        origin,
        version: assets.version,
        data: flags.load
          ? `${state.counts.pets} pets loaded from ${flags.load}${store ? `, saved to ${store.file} after every create` : ''}`
          : store?.readOnly
            ? `${state.counts.pets} pets from ${store.file}, READ-ONLY (${store.readOnly}): creates answer 507 storage_failed until there is room`
            : restored
              ? `${state.counts.pets} pets restored from ${store?.file}, saved after every create`
              : `${state.counts.pets} pets from seed ${state.seed}${flags.fixtures ? ` and fixtures ${flags.fixtures}` : ''}${store ? `, saved to ${store.file} after every create` : ''}`,
        watching: flags.watch ? watched : [],
        ...(flags.handlers
          ? { handlers: `${overrides.length} from ${flags.handlers}` }
          : {}),
        openApi: assets.openApiFile !== undefined,
        demo: assets.demoDir !== undefined,
        docs: assets.docsDir !== undefined,
        inspector: assets.inspectorDir !== undefined,
        ...(exposed || access.controlToken !== undefined ? { access } : {}),
      },
      flags.logFormat,
      flags.quiet,
      paint,
    ),
  )

  /**
   * `--load`: the export becomes the default session (pets, scenario, clock). A
   * `--persist` file that held a state already is not overwritten by it.
   */
  async function loadSession(file: string, persisted: boolean) {
    if (persisted) {
      throw new CliError(
        `--load ${file} and --persist ${store?.file}: the --persist file already holds pets, which the export would replace. Give --persist a new file to load the export into, or leave out --load to go on with ${store?.file}.`,
      )
    }
    try {
      await sandbox.importSession('default', readSessionFile(file), file)
    } catch (error) {
      if (error instanceof SandboxError) throw new CliError(error.message)
      throw error
    }
  }

  let scenarioName = sandbox.startupScenario
  async function reload(path: string) {
    try {
      if (flags.scenario !== undefined && path === resolve(flags.scenario)) {
        const scenario = loadScenarioFile(path)
        const previous = scenarioName
        sandbox.addScenario(scenario)
        scenarioName = scenario.name
        if (scenario.name !== previous && sandbox.scenario.name === previous)
          sandbox.useScenario(scenario.name)
        report('scenario', path, `scenario "${scenario.name}" reloaded from ${path}`)
      } else if (flags.handlers !== undefined && path === resolve(flags.handlers)) {
        const handlers = await loadHandlersModule(path, true)
        portOf(sandbox).useOverrides(handlers)
        report(
          'handlers',
          path,
          `${handlers.length} handler(s) reloaded from ${path} (files it imports are not reloaded)`,
        )
      } else {
        const moved = await sandbox.reloadFixtures(loadFixturesFile(path))
        // A client that created pet 4 would find another pet there: say where it went.
        const moves = moved.map(({ from, to }) => `${from} is now ${to}`)
        report(
          'fixtures',
          path,
          `fixtures reloaded from ${path} (created pets kept${moves.length > 0 ? `; the fixtures took the ids of ${moves.length} of them: ${moves.slice(0, 5).join(', ')}${moves.length > 5 ? ', ...' : ''}` : ''})`,
          moved.length > 0 ? { moved } : {},
        )
      }
    } catch (error) {
      if (error instanceof StoreWriteError) {
        // The new fixtures are served; only the file lags behind (the store said why).
        report('fixtures', path, `fixtures reloaded from ${path}, but not saved`)
        return
      }
      const message =
        error instanceof SandboxError ? error.message : (error as Error).message
      if (json) out(JSON.stringify({ type: 'reload-failed', path, message }))
      else warn(`${message} The previous version stays active.`)
    }
  }
  function report(
    kind: string,
    path: string,
    message: string,
    extra: Record<string, unknown> = {},
  ) {
    if (json)
      out(
        JSON.stringify({
          type: 'reload',
          kind,
          path,
          scenario: sandbox.scenario.name,
          pets: sandbox.state().counts.pets,
          ...extra,
        }),
      )
    else if (!flags.quiet) out(paint(CYAN, `↻ ${message}`))
  }
}

/** Runs a start-up step, turning the sandbox's own errors into one-line CLI errors. */
function startupStep<T>(step: () => T): T {
  try {
    return step()
  } catch (error) {
    if (error instanceof SandboxError) throw new CliError(error.message)
    throw error
  }
}

async function listen(
  app: Parameters<typeof listenSandboxApp>[0],
  flags: ServeFlags,
): Promise<Server> {
  try {
    return await listenSandboxApp(app, { port: flags.port, host: flags.host })
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code
    const where = `port ${flags.port} on ${flags.host}`
    if (code === 'EADDRINUSE') {
      throw new CliError(
        `${where} is already in use (another sandbox?). Stop that process or choose another port, e.g. --port ${flags.port === 65535 ? 4011 : flags.port + 1}.`,
      )
    }
    if (code === 'EACCES') {
      throw new CliError(
        `not allowed to listen on ${where}. Use a port above 1023, e.g. --port 4010.`,
      )
    }
    if (code === 'EADDRNOTAVAIL' || code === 'ENOTFOUND' || code === 'EAI_AGAIN') {
      throw new CliError(
        `--host ${flags.host} is not an address of this machine. Use 127.0.0.1, or 0.0.0.0 to listen on every interface.`,
      )
    }
    throw new CliError(`Failed to listen on ${where}: ${(error as Error).message}.`)
  }
}

function nonEmpty(value: string | undefined) {
  return value === undefined || value.trim() === '' ? undefined : value.trim()
}

function displayHost(host: string) {
  if (host === '0.0.0.0') return '127.0.0.1'
  if (host === '::') return '[::1]'
  return host.includes(':') ? `[${host}]` : host
}
