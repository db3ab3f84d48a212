import { SandboxError } from '../common/errors.js'
import { StorageFullError } from '../data/pet-quota.js'
import type { Scenario } from './scenarios.js'
import { thousands } from '../common/text.js'
import type { PetQuota } from '../data/pet-quota.js'
import type { ScenarioRegistry } from './scenario-registry.js'

/** What defining scenarios needs of the sandbox (the world passes its owner). */
export interface DefinitionHost {
  /** Validates a scenario definition (`source` is named in errors), as files are. */
  parseDefinition(definition: unknown, source: string): Scenario
  readonly registry: ScenarioRegistry
  /** Every world of the sandbox counts its created pets here. */
  readonly quota: PetQuota
  /** The sandbox's count (option `count`). */
  readonly count: number
}

/** The most scenarios one world may define at run time (PUT /__sandbox/scenarios/{name}). */
export const MAX_DEFINED_SCENARIOS = 20

/**
 * The scenarios one world defined at run time (PUT /__sandbox/scenarios/{name}, an
 * import), by name, and the pets their data seeds, which count with created pets in the
 * sandbox's quota: each definition is checked here, once, whether a request defines it
 * or an import carries it. The world makes one on first use and does the rest (its
 * active scenario, the pets of a scenario redefined).
 */
export class DefinedScenarios {
  readonly #shared: DefinitionHost
  readonly #byName = new Map<string, Scenario>()

  constructor(shared: DefinitionHost) {
    this.#shared = shared
  }

  get(name: string): Scenario | undefined {
    return this.#byName.get(name)
  }

  /** Oldest first. */
  list(): Scenario[] {
    return [...this.#byName.values()]
  }

  /**
   * Defines (or replaces) one: validated as a scenario file, without `keys` and under a
   * name no loaded scenario has. Throws a SandboxError (INVALID_SCENARIO) naming the field.
   * `imported`: one of an import's, which `checkImport` passed with the others (its
   * limits are not judged again one by one).
   */
  define(
    definition: Scenario,
    source: string,
    imported = false,
  ): { scenario: Scenario; created: boolean } {
    const scenario = this.#check(definition, source)
    const created = !this.#byName.has(scenario.name)
    if (!imported && created && this.#byName.size >= MAX_DEFINED_SCENARIOS) {
      throw refuse(source, TOO_MANY, DELETE_ONE)
    }
    const previous = this.#byName.get(scenario.name)
    const more = this.#seeds(scenario) - (previous ? this.#seeds(previous) : 0)
    const tooMany = imported ? undefined : this.#refusal(more)
    if (tooMany) {
      throw refuse(
        source,
        tooMany,
        'Seed fewer pets (data.count, data.pets), delete a scenario this session defined (DELETE /__sandbox/scenarios/{name}), or reset the session.',
      )
    }
    // The pets its data seeds count with created pets, in the quota.
    this.#shared.quota.add(more)
    this.#byName.set(scenario.name, scenario)
    return { scenario, created }
  }

  /**
   * Throws what defining these (an import's) would throw, changing nothing: a definition
   * refused, one scenario too many, or their pets past `maxPets` (a StorageFullError,
   * answered 507). Returns how many more pets they seed than those they replace.
   */
  checkImport(scenarios: readonly Scenario[], source: string): number {
    const names = new Set(this.#byName.keys())
    let seeded = 0
    let replaced = 0
    for (const definition of scenarios) {
      const scenario = this.#check(definition, source)
      const previous = this.#byName.get(scenario.name)
      seeded += this.#seeds(scenario)
      if (previous) replaced += this.#seeds(previous)
      names.add(scenario.name)
    }
    if (names.size > MAX_DEFINED_SCENARIOS) throw refuse(source, TOO_MANY, DELETE_ONE)
    const { maxPets } = this.#shared.quota
    const kept = this.#pets() - replaced
    if (kept + seeded > maxPets) {
      throw new StorageFullError(
        `The export's scenarios seed ${thousands(seeded)} pets${kept > 0 ? ` beside the ${thousands(kept)} of the scenarios this session defines` : ''}; the scenarios of one session seed at most ${thousands(maxPets)} together (maxPets, --max-pets). Import an export whose scenarios seed fewer (data.count), or start the sandbox with a larger limit.`,
      )
    }
    return seeded - replaced
  }

  /** Removes one, giving its pets back to the quota; undefined when there is none. */
  remove(name: string): Scenario | undefined {
    const removed = this.#byName.get(name)
    if (!removed) return undefined
    this.#byName.delete(name)
    this.#shared.quota.add(-this.#seeds(removed))
    return removed
  }

  /** Forgets them all, and gives their pets back to the quota. */
  clear(): void {
    this.#shared.quota.add(-this.#pets())
    this.#byName.clear()
  }

  /** A definition parsed, and refused if it may not be a run-time scenario. */
  #check(definition: Scenario, source: string): Scenario {
    const scenario = this.#shared.parseDefinition(definition, source)
    if (scenario.keys !== undefined) {
      throw refuse(
        source,
        "keys is set, and keys are the sandbox's, not a session's",
        'Leave keys out: select the scenario with PUT /__sandbox/scenario or X-Sandbox-Scenario, or declare keys in a scenario file loaded at start (--scenario).',
      )
    }
    if (scenario.name in Object.prototype) {
      throw refuse(
        source,
        `name "${scenario.name}" is a name every JavaScript object has`,
        'Choose another name, e.g. "my-scenario".',
      )
    }
    if (this.#shared.registry.has(scenario.name)) {
      throw refuse(
        source,
        `name "${scenario.name}" is a built-in or loaded scenario`,
        'Choose another name, e.g. "my-' + scenario.name + '".',
      )
    }
    return scenario
  }

  /** The pets a scenario's data seeds when used (as the sandbox's `seedFor` makes them). */
  #seeds(scenario: Scenario): number {
    const { data } = scenario
    if (!data) return 0
    return data.pets?.length ?? data.count ?? this.#shared.count
  }

  /** The pets their data seeds, together. */
  #pets(): number {
    let pets = 0
    for (const scenario of this.#byName.values()) pets += this.#seeds(scenario)
    return pets
  }

  /**
   * Why they may not seed `more` pets: together they seed at most `maxPets`, and they
   * count with created pets against `maxTotalPets`, so that no definition makes a shared
   * server build pets without bound.
   */
  #refusal(more: number): string | undefined {
    if (more <= 0) return undefined
    const { quota } = this.#shared
    const what = `its data adds ${thousands(more)} pets to seed`
    const already = this.#pets()
    if (already + more > quota.maxPets) {
      return `${what}, and the scenarios a session defines seed at most ${thousands(quota.maxPets)} together (maxPets, --max-pets), ${thousands(already)} already`
    }
    if (quota.total + more > quota.maxTotalPets) {
      return `${what}, and the sandbox already holds ${thousands(quota.total)} created pets and pets of defined scenarios, of the ${thousands(quota.maxTotalPets)} it keeps (maxTotalPets, --max-total-pets)`
    }
    return undefined
  }
}

const refuse = (source: string, reason: string, fix: string) =>
  SandboxError.for('INVALID_SCENARIO', `define the scenario ${source}`, reason, fix)

const TOO_MANY = `the session already defines ${MAX_DEFINED_SCENARIOS} scenarios, the most it may`
const DELETE_ONE =
  'Delete one first (DELETE /__sandbox/scenarios/{name}), or reset the session.'
