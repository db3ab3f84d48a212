import { SandboxError } from '../common/errors.js'
import { isBuiltIn, sameDefinition, scenarioSource, type Scenario } from './scenarios.js'
import { closest } from '../common/suggest.js'

/** The error of a scenario loaded at start under a name `taken` already has. */
function nameTaken(scenario: Scenario, taken: Scenario): SandboxError {
  const action = `load the scenario ${scenarioSource(scenario) ?? scenario.name}`
  const name = JSON.stringify(scenario.name)
  if (isBuiltIn(taken)) {
    return SandboxError.for(
      'INVALID_SCENARIO',
      action,
      `name ${name} is the name of a built-in scenario, which a scenario loaded at start cannot replace`,
      `Give yours another name, e.g. "my-${scenario.name}" (the built-in one stays selectable as ${name}).`,
    )
  }
  return SandboxError.for(
    'INVALID_SCENARIO',
    action,
    `name ${name} is also the name of the scenario ${scenarioSource(taken) ?? 'loaded before'}, which it would silently replace`,
    'Rename one of the two: every scenario loaded at start needs a name of its own.',
  )
}

/** The registry of loaded scenarios of one sandbox. */
export class ScenarioRegistry {
  readonly #scenarios = new Map<string, Scenario>()

  constructor(scenarios: readonly Scenario[]) {
    for (const scenario of scenarios) this.add(scenario)
  }

  /**
   * Loads a scenario given at start (a file, the options): a name a built-in scenario or
   * another one loaded at start has is an error, since the one loaded last would
   * silently win. The same definition again is that scenario, not a duplicate.
   */
  load(scenario: Scenario) {
    const taken = this.#scenarios.get(scenario.name)
    if (taken && !sameDefinition(taken, scenario)) throw nameTaken(scenario, taken)
    this.add(scenario)
  }

  /**
   * Adds or replaces a scenario: what the code asks for at run time (addScenario, and
   * --watch through it for the file that changed, useScenario with a definition).
   */
  add(scenario: Scenario) {
    this.#scenarios.set(scenario.name, scenario)
  }

  has(name: string) {
    return this.#scenarios.has(name)
  }

  list(): Scenario[] {
    return [...this.#scenarios.values()]
  }

  /** Returns the scenario or throws a SandboxError listing the known names. */
  get(name: string, action = `select the scenario "${name}"`): Scenario {
    const scenario = this.#scenarios.get(name)
    if (!scenario) {
      throw SandboxError.for(
        'UNKNOWN_SCENARIO',
        action,
        this.unknownReason(name),
        this.hint(),
      )
    }
    return scenario
  }

  unknownReason(name: string) {
    const meant = closest(name, [...this.#scenarios.keys()])
    return `there is no scenario named ${JSON.stringify(name)}${meant ? ` (did you mean "${meant}"?)` : ''}`
  }

  hint() {
    return `Use one of: ${[...this.#scenarios.keys()].join(', ')}; load your own from a file with --scenario ./file.json or the scenario option.`
  }
}
