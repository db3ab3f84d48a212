import type { Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { resolve } from 'node:path'
import { SandboxError } from '../core/common/errors.js'
import { isLoopbackAddress } from '../core/http/request-trust.js'
import { createSandbox, type Sandbox, type SandboxState } from '../core/sandbox.js'
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
import { openFileStore, type FileStore } from '../node/file-store/create-file-store.js'
import { formatBanner, type BannerAccess, type BannerInfo } from './banner.js'
import { loadHandlersModule } from './handlers-module.js'
import { cliFastPath } from './fast-path.js'
import { CliError } from './cli-error.js'
import { createPaint, CYAN, type Paint } from './colors.js'
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
  const warn = (line: string) => process.stderr.write(`petstore-sandbox: ${line}\n`)
  // The sandbox writes every change through the store: a create's 201 leaves once its
  // pet is in the file, and a failed write is a 507 (and a line here).
  // Locked and read here: another server on the file, or a corrupt file, stops the start.
  const store = flags.persist
    ? openFileStore(flags.persist, { option: '--persist', log: warn })
    : undefined
  const overrides = flags.handlers ? await loadHandlersModule(flags.handlers) : []
  const sandbox = startupStep(() =>
    createSandbox(sandboxOptions(flags, store, overrides)),
  )
  await sandbox.ready
  const restored = store ? await store.restored : false
  if (flags.load !== undefined) await loadSession(sandbox, store, flags.load, restored)
  const run: Run = {
    flags,
    sandbox,
    store,
    overrides,
    restored,
    scenarioName: sandbox.startupScenario,
    out: (line) => process.stdout.write(`${line}\n`),
    warn,
    paint: createPaint(process.stdout),
  }

  // A token given (flag, else environment) is required on any bind; without one, a
  // server bound beyond loopback generates one (docs/security.md).
  const controlToken = flags.controlToken ?? nonEmpty(process.env[CONTROL_TOKEN_ENV])
  const app = buildApp(run, controlToken)
  const server = await listen(app, flags)
  const { port, address } = server.address() as AddressInfo
  const exposed = !isLoopbackAddress(address)
  const access: BannerAccess = {
    exposed,
    origins: listenOrigins(address, port),
    controlToken: exposed || controlToken !== undefined ? app.controlToken : undefined,
  }

  const stopLog = flags.quiet
    ? () => {}
    : sandbox.onRequest((entry) =>
        run.out(formatRequest(entry, flags.logFormat, run.paint)),
      )
  const watched = watchedFiles(flags)
  const watcher = flags.watch
    ? watchFiles(watched, (path) => void reload(run, path))
    : undefined
  if (flags.watch && watched.length === 0) {
    warn(
      '--watch has nothing to watch: it reloads the files given with --scenario ./file.json, --fixtures and --handlers.',
    )
  }

  // Before the banner: a signal sent as soon as the ready line is read must find the
  // handler (else Node's default ends the process without its clean exit).
  closeOnSignals(run, server, () => {
    watcher?.close()
    stopLog()
  })
  const origin = `http://${displayHost(flags.host)}:${port}`
  const state = sandbox.state()
  run.out(
    formatBanner(
      state,
      bannerInfo(run, state, origin, flags.watch ? watched : [], access),
      flags.logFormat,
      flags.quiet,
      run.paint,
    ),
  )
}

type Handlers = Awaited<ReturnType<typeof loadHandlersModule>>

/** One run of the server: its flags, its sandbox and store, and where it writes lines. */
interface Run {
  readonly flags: ServeFlags
  readonly sandbox: Sandbox
  readonly store: FileStore | undefined
  /** The `--handlers` module's handlers, as loaded at the start. */
  readonly overrides: Handlers
  /** The `--persist` file held a state, which the sandbox now serves. */
  readonly restored: boolean
  /** The `--scenario` file's scenario as last loaded: a reload that renames it follows. */
  scenarioName: string
  out(line: string): void
  warn(line: string): void
  readonly paint: Paint
}

/** The sandbox's options, from the flags, the `--persist` store and the handlers. */
function sandboxOptions(
  flags: ServeFlags,
  store: FileStore | undefined,
  overrides: Handlers,
) {
  return resolveNodeOptions({
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
    ...(flags.sessionTtl === undefined ? {} : { sessionTtlSeconds: flags.sessionTtl }),
  })
}

/**
 * `--load`: the export becomes the default session (pets, scenario, clock). A
 * `--persist` file that held a state already is not overwritten by it.
 */
async function loadSession(
  sandbox: Sandbox,
  store: FileStore | undefined,
  file: string,
  persisted: boolean,
) {
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

/** The Express app over the run's sandbox; an error it could not answer is a line. */
function buildApp(run: Run, controlToken: string | undefined) {
  const { flags, warn } = run
  return buildSandboxApp(
    run.sandbox,
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
}

/** The files `--watch` reloads: a scenario file, the fixtures, the handlers module. */
function watchedFiles(flags: ServeFlags): string[] {
  return [
    ...(flags.scenario !== undefined && isPath(flags.scenario) ? [flags.scenario] : []),
    ...(flags.fixtures !== undefined ? [flags.fixtures] : []),
    ...(flags.handlers !== undefined ? [flags.handlers] : []),
  ]
}

/**
 * SIGINT and SIGTERM close the server: requests running may finish for GRACE_MS, then the
 * report card's summary and a last line; a second signal exits at once.
 */
function closeOnSignals(run: Run, server: Server, stop: () => void): void {
  const { flags, out, paint, store } = run
  let closing = false
  const shutdown = (signal: NodeJS.Signals) => {
    if (closing) process.exit(130)
    closing = true
    stop()
    // Nothing to flush: every acknowledged create is in the --persist file already.
    server.close(() => {
      if (!flags.quiet) {
        for (const line of formatReportSummary(run.sandbox, flags.logFormat, paint))
          out(line)
      }
      if (flags.logFormat === 'json') out(JSON.stringify({ type: 'stopped', signal }))
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
}

/** What the banner says besides the sandbox's state: where, what data, what is built. */
function bannerInfo(
  run: Run,
  state: SandboxState,
  origin: string,
  watching: string[],
  access: BannerAccess,
): BannerInfo {
  const { flags, store } = run
  const assets = packageAssets()
  return {
    origin,
    version: assets.version,
    data: flags.load
      ? `${state.counts.pets} pets loaded from ${flags.load}${store ? `, saved to ${store.file} after every create` : ''}`
      : store?.readOnly
        ? `${state.counts.pets} pets from ${store.file}, READ-ONLY (${store.readOnly}): creates answer 507 storage_failed until there is room`
        : run.restored
          ? `${state.counts.pets} pets restored from ${store?.file}, saved after every create`
          : `${state.counts.pets} pets from seed ${state.seed}${flags.fixtures ? ` and fixtures ${flags.fixtures}` : ''}${store ? `, saved to ${store.file} after every create` : ''}`,
    watching,
    ...(flags.handlers
      ? { handlers: `${run.overrides.length} from ${flags.handlers}` }
      : {}),
    openApi: assets.openApiFile !== undefined,
    demo: assets.demoDir !== undefined,
    docs: assets.docsDir !== undefined,
    inspector: assets.inspectorDir !== undefined,
    ...(access.exposed || access.controlToken !== undefined ? { access } : {}),
  }
}

/** `--watch` saw `path` change: reloads it; a file that fails keeps the previous version. */
async function reload(run: Run, path: string) {
  const { flags, sandbox } = run
  try {
    if (flags.scenario !== undefined && path === resolve(flags.scenario)) {
      const scenario = loadScenarioFile(path)
      const previous = run.scenarioName
      sandbox.addScenario(scenario)
      run.scenarioName = scenario.name
      if (scenario.name !== previous && sandbox.scenario.name === previous)
        sandbox.useScenario(scenario.name)
      report(run, 'scenario', path, `scenario "${scenario.name}" reloaded from ${path}`)
    } else if (flags.handlers !== undefined && path === resolve(flags.handlers)) {
      const handlers = await loadHandlersModule(path, true)
      portOf(sandbox).useOverrides(handlers)
      report(
        run,
        'handlers',
        path,
        `${handlers.length} handler(s) reloaded from ${path} (files it imports are not reloaded)`,
      )
    } else {
      await reloadFixtures(run, path)
    }
  } catch (error) {
    if (error instanceof StoreWriteError) {
      // The new fixtures are served; only the file lags behind (the store said why).
      report(run, 'fixtures', path, `fixtures reloaded from ${path}, but not saved`)
      return
    }
    const message =
      error instanceof SandboxError ? error.message : (error as Error).message
    if (flags.logFormat === 'json')
      run.out(JSON.stringify({ type: 'reload-failed', path, message }))
    else run.warn(`${message} The previous version stays active.`)
  }
}

async function reloadFixtures(run: Run, path: string) {
  const moved = await run.sandbox.reloadFixtures(loadFixturesFile(path))
  // A client that created pet 4 would find another pet there: say where it went.
  const moves = moved.map(({ from, to }) => `${from} is now ${to}`)
  report(
    run,
    'fixtures',
    path,
    `fixtures reloaded from ${path} (created pets kept${moves.length > 0 ? `; the fixtures took the ids of ${moves.length} of them: ${moves.slice(0, 5).join(', ')}${moves.length > 5 ? ', ...' : ''}` : ''})`,
    moved.length > 0 ? { moved } : {},
  )
}

/** Says a reload went through: one JSON line, or a cyan line unless `--quiet`. */
function report(
  run: Run,
  kind: string,
  path: string,
  message: string,
  extra: Record<string, unknown> = {},
) {
  if (run.flags.logFormat === 'json')
    run.out(
      JSON.stringify({
        type: 'reload',
        kind,
        path,
        scenario: run.sandbox.scenario.name,
        pets: run.sandbox.state().counts.pets,
        ...extra,
      }),
    )
  else if (!run.flags.quiet) run.out(run.paint(CYAN, `↻ ${message}`))
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
