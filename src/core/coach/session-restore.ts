import type { Pet } from '../common/schemas.js'
import { SandboxError } from '../common/errors.js'
import type { Clock } from '../data/clock.js'
import type { Scenario } from '../scenarios/scenarios.js'
import type { SessionExport } from './session-export.js'

// The last step of taking a session in: a world made what a checked export
// (session-import.ts) says.

/** What {@link restoreWorld} changes of a world. */
export interface RestoreTarget {
  /**
   * Throws what defining these scenarios and taking these pets would: a definition
   * refused, or the pets and what the scenarios seed past the sandbox's pet limits
   * (StorageFullError). Changes nothing.
   */
  checkImport(pets: readonly Pet[], scenarios: readonly Scenario[]): void
  /** Replaces its pets, counting them against the quota at once. */
  restorePets(pets: Pet[]): Promise<void>
  clock: Clock
  /** Whether a scenario of this name is loaded for every session (built in, files, options). */
  hasScenario(name: string): boolean
  /**
   * Defines these for this world only, as `PUT /__sandbox/scenarios/{name}` does, once
   * `checkImport` passed them as a whole.
   */
  defineScenarios(scenarios: readonly Scenario[]): void
  useScenario(name: string): void
}

/**
 * Makes a world what the export says: its run-time scenarios defined, its scenario
 * selected, its clock set (and frozen if it was), its pets restored. Its journal, rate-
 * limit windows and bans are left as they are (a new session's: empty, fresh). Throws a
 * SandboxError, before it changes anything, when the selected scenario is neither
 * loaded here nor carried.
 */
export async function restoreWorld(
  target: RestoreTarget,
  data: SessionExport,
  source: string,
): Promise<void> {
  // Checked before anything changes: a carried definition not taking a loaded name,
  // each definable, and the pets with what the definitions seed within the sandbox's
  // limits (a full quota is a 507, as for a create).
  for (const [index, scenario] of data.scenarios.entries()) {
    if (target.hasScenario(scenario.name)) {
      throw SandboxError.for(
        'INVALID_SESSION_EXPORT',
        `import the session from ${source}`,
        `its scenarios[${index}] is named "${scenario.name}", a scenario loaded in this sandbox, which a session cannot define`,
        'Rename it in the export (and its "scenario" if selected), or import into a sandbox that does not load that scenario.',
      )
    }
  }
  const carried = data.scenarios.some((scenario) => scenario.name === data.scenario)
  if (!carried && !target.hasScenario(data.scenario)) {
    throw SandboxError.for(
      'INVALID_SESSION_EXPORT',
      `import the session from ${source}`,
      `its scenario "${data.scenario}" is not loaded in this sandbox, nor defined in the export's scenarios`,
      `Load that scenario (--scenario ./${data.scenario}.json or the scenarios option) before importing.`,
    )
  }
  target.checkImport(data.pets, data.scenarios)
  // Applied as checked, with nothing awaited before the pets and the definitions are
  // counted (a second import is checked against this one): the pets first, so that the
  // definitions, checked as a whole, are not judged one by one against the pets they
  // replace.
  const restoring = target.restorePets(data.pets)
  target.defineScenarios(data.scenarios)
  target.useScenario(data.scenario)
  const { clock } = target
  if (data.clock.frozen) clock.freeze(data.clock.now)
  else {
    clock.unfreeze()
    clock.set(data.clock.now)
  }
  await restoring
}
