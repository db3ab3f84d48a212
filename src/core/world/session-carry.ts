import { SandboxError } from '../common/errors.js'
import type { Failure } from '../http/api-errors.js'
import { harBytes, harTextSteps, journalToHar, type Har } from '../coach/har.js'
import { JsonText } from '../http/reply.js'
import type { Pet } from '../common/schemas.js'
import { nextTurn, runInSlices } from '../common/slices.js'
import type { World } from './sandbox-types.js'
import type { ScenarioRegistry } from '../scenarios/scenario-registry.js'
import {
  exportBytes,
  exportTextSteps,
  exportWorld,
  type ExportSource,
  type SessionExport,
} from '../coach/session-export.js'
import { parseSessionExportInSlices } from '../coach/session-import.js'
import { restoreWorld, type RestoreTarget } from '../coach/session-restore.js'
import { DEFAULT_SESSION, isSessionId, type SessionRegistry } from './sessions.js'
import type { SandboxWorld } from './world.js'

/** What carrying sessions reads of the sandbox (its owner, SandboxOwner, hands itself in). */
export interface CarrySandbox {
  readonly seed: number
  readonly count: number
  readonly maxPets: number | undefined
  readonly registry: ScenarioRegistry
  /** The origin `exportHar` puts the journal's paths on when the caller names none. */
  readonly origin: string
  readonly main: SandboxWorld
  readonly sessions: SessionRegistry<SandboxWorld>
  worldOf(id: string): { world: SandboxWorld; created: boolean }
}

/** The sandbox's methods that carry a session out and in (see {@link Sandbox}). */
export interface SessionCarrying {
  exportSession(id?: string): Promise<SessionExport>
  importSession(id: string, data: unknown, source?: string): Promise<World>
  exportHar(id?: string, origin?: string): Har
}

/** How an export is put into a world: what restoreWorld changes of it. */
function restoreTargetOf(world: SandboxWorld, registry: ScenarioRegistry): RestoreTarget {
  return {
    checkImport: (pets, scenarios) => world.checkImport(pets, scenarios, 'the export'),
    restorePets: (pets) => world.pets.restore(pets, { countNow: true }),
    clock: world.clock,
    hasScenario: (name) => registry.has(name),
    defineScenarios: (scenarios) => world.defineImported(scenarios, 'the export'),
    // By name: the world finds the ones it defined, then the sandbox's.
    useScenario: (name) => world.useScenario(name),
  }
}

/**
 * What the control API uses beyond the public methods: it checks an export itself, to
 * name its fields as the body's (`from.pets[3].name`), then imports it as checked. It
 * reaches them through the sandbox's port (`portOf(sandbox).carrying`).
 */
export interface CarryingInternals {
  readonly maxPets: number | undefined
  /** `importSession` of an export {@link checkSessionExport} has passed (with `maxPets`). */
  importChecked(id: string, data: SessionExport, source: string): Promise<World>
  /**
   * The export of a world the control API already holds: the request's session, which
   * for a session that is not live is its preview (what it would start as).
   */
  exportOf(world: SandboxWorld): Promise<SessionExport>
  /** Its journal as HAR, its paths on `origin`. */
  harOf(world: SandboxWorld, origin: string): Har
  /**
   * The text of its export, built in slices once `reserve` (the server's budget of
   * large answers) took room for its estimated size; reserve's failure (503) otherwise.
   */
  exportTextOf(world: SandboxWorld, reserve?: Reserve): Promise<JsonText | Failure>
  /** The text of its journal as HAR, likewise. */
  harTextOf(
    world: SandboxWorld,
    origin: string,
    reserve?: Reserve,
  ): Promise<JsonText | Failure>
}

/** Takes room for a large answer before it is built (HandleInit `reserve`). */
type Reserve = (bytes: number) => Failure | undefined

/** The sandbox's methods, and the internals its port hands the control API. */
export function createSessionCarrying(sandbox: CarrySandbox): SessionCarrying & {
  internals: CarryingInternals
} {
  const internals: CarryingInternals = {
    maxPets: sandbox.maxPets,
    importChecked: (id, data, source) => importChecked(sandbox, id, data, source),
    exportOf: (world) => exportOf(sandbox, world),
    harOf,
    exportTextOf: (world, reserve) => exportTextOf(sandbox, world, reserve),
    harTextOf,
  }
  return {
    internals,

    async exportSession(id = DEFAULT_SESSION) {
      return exportOf(
        sandbox,
        liveWorld(sandbox, id, `export the session ${JSON.stringify(id.slice(0, 70))}`),
      )
    },

    async importSession(id, data, source = 'importSession()') {
      const action = `import the session ${JSON.stringify(String(id).slice(0, 70))}`
      if (typeof id !== 'string' || !isSessionId(id)) {
        throw SandboxError.for(
          'INVALID_OPTION',
          action,
          'a session id is 1 to 64 letters, digits, "-" or "_"',
          'Use an id such as "alice-bug".',
        )
      }
      const live = () =>
        SandboxError.for(
          'INVALID_OPTION',
          action,
          'a session of that id is live',
          `End it first (sandbox.endSession(${JSON.stringify(id)})), or import under another id.`,
        )
      if (id !== DEFAULT_SESSION && sandbox.sessions.peek(id)) throw live()
      const parsed = await parseSessionExportInSlices(data, source, {
        root: '',
        maxPets: sandbox.maxPets,
      })
      // Checked in slices: another import or a request may have made it meanwhile.
      if (id !== DEFAULT_SESSION && sandbox.sessions.peek(id)) throw live()
      return importChecked(sandbox, id, parsed, source)
    },

    exportHar(id = DEFAULT_SESSION, origin = sandbox.origin) {
      return harOf(
        liveWorld(
          sandbox,
          id,
          `export the journal of ${JSON.stringify(id.slice(0, 70))} as HAR`,
        ),
        origin,
      )
    },
  }
}

/** A live world by id (the default one always is), or a SandboxError naming the live ones. */
function liveWorld(sandbox: CarrySandbox, id: string, action: string): SandboxWorld {
  if (id === DEFAULT_SESSION) return sandbox.main
  const world = sandbox.sessions.peek(id)
  if (world) return world
  throw SandboxError.for(
    'INVALID_OPTION',
    action,
    `there is no live session ${JSON.stringify(id.slice(0, 70))}`,
    'Name one that sandbox.sessions() lists, or leave the id out for the default session.',
  )
}

/** {@link CarryingInternals.importChecked}: the session of `id` made what `data` says. */
async function importChecked(
  sandbox: CarrySandbox,
  id: string,
  data: SessionExport,
  source: string,
): Promise<World> {
  const { world, created } = sandbox.worldOf(id)
  const live = () => id === DEFAULT_SESSION || sandbox.sessions.peek(id) === world
  await world.ready
  try {
    if (live()) await restoreWorld(restoreTargetOf(world, sandbox.registry), data, source)
    // Ended meanwhile (deleted, expired, or evicted to make room for another).
    if (!live()) {
      throw SandboxError.for(
        'INVALID_OPTION',
        `import the session ${JSON.stringify(id.slice(0, 70))}`,
        'the session ended (deleted, expired or evicted for a newer one) while it was being imported',
        'Import it again; with many sessions at once, start the sandbox with a larger maxSessions (--max-sessions).',
      )
    }
  } catch (error) {
    // Nothing half made: a refused export leaves no session behind, and a world that
    // ended meanwhile gives back what the import counted in it.
    if (!live()) world.dispose()
    else if (created) sandbox.sessions.delete(id)
    throw error
  }
  return world
}

/** What an export of `world` holds, its pets given as `pets`. */
function sourceOf(sandbox: CarrySandbox, world: SandboxWorld, pets: Pet[]): ExportSource {
  return {
    session: world.id,
    seed: sandbox.seed,
    count: sandbox.count,
    scenario: world.scenario.name,
    scenarios: world.definedScenarios(),
    clock: world.clock,
    pets,
    journal: world.journal,
  }
}

async function exportOf(
  sandbox: CarrySandbox,
  world: SandboxWorld,
): Promise<SessionExport> {
  await world.ready
  return exportWorld(sourceOf(sandbox, world, world.pets.snapshot()))
}

/** {@link CarryingInternals.exportTextOf}. */
async function exportTextOf(
  sandbox: CarrySandbox,
  world: SandboxWorld,
  reserve?: Reserve,
): Promise<JsonText | Failure> {
  await world.ready
  // Its records as they are now; the text is built from these, in slices.
  const source = {
    ...sourceOf(sandbox, world, world.pets.records()),
    petBytes: world.pets.textBytes(),
  }
  const refused = reserve?.(exportBytes(source, world.journal.bytes))
  if (refused) return refused
  // On a server, its first slice too in a turn of its own: twenty asked at once are
  // read in one task, where each first slice would run one after another.
  if (reserve) await nextTurn()
  return new JsonText(await runInSlices(exportTextSteps(source)))
}

/** {@link CarryingInternals.harTextOf}. */
async function harTextOf(
  world: SandboxWorld,
  origin: string,
  reserve?: Reserve,
): Promise<JsonText | Failure> {
  const { journal } = world
  const entries = journal.recent().reverse()
  const refused = reserve?.(harBytes(entries.length, journal.bytes))
  if (refused) return refused
  if (reserve) await nextTurn()
  return new JsonText(
    await runInSlices(harTextSteps(entries, { origin, complete: journal.complete })),
  )
}

function harOf(world: SandboxWorld, origin: string): Har {
  return journalToHar(world.journal.recent().reverse(), {
    origin,
    complete: world.journal.complete,
  })
}
