import { BUILT_IN_SCENARIOS, type Scenario } from '../core/scenarios/scenarios.js'
import { loadScenarioFile } from '../node/files.js'
import { BOLD, DIM, type Paint } from './colors.js'

/**
 * The text of `petstore-sandbox scenarios`: every built-in scenario, and the one in
 * `file` when given, with its description and how to select it.
 */
export function listScenarios(file: string | undefined, paint: Paint): string {
  const scenarios = new Map<string, Scenario>()
  for (const scenario of BUILT_IN_SCENARIOS) scenarios.set(scenario.name, scenario)
  if (file !== undefined) {
    const loaded = loadScenarioFile(file)
    scenarios.set(loaded.name, loaded)
  }
  const width = Math.max(...[...scenarios.keys()].map((name) => name.length)) + 2
  return [
    ...[...scenarios.values()].map(
      (scenario) => `${paint(BOLD, scenario.name.padEnd(width))}${scenario.description}`,
    ),
    '',
    paint(
      DIM,
      'Start with one: petstore-sandbox --scenario <name|./file.json>. Switch while running: PUT /__sandbox/scenario {"name":"<name>"}, or for one request the header X-Sandbox-Scenario: <name>.',
    ),
  ].join('\n')
}
