import { existsSync } from 'node:fs'
import { SCENARIO_NAMES } from '../core/scenarios/scenarios.js'
import { isPath } from '../node/files.js'
import { CliError, EXIT_USAGE } from './cli-error.js'
import { closest } from '../core/common/suggest.js'

/**
 * Checks `--scenario` before the server starts: a path is left to the file loader, which
 * names the file and the field; a name must be a built-in scenario (the only ones loaded
 * at startup), else one line with the nearest name, every name, and how to give a file.
 * Not yargs `choices`: the flag also takes a path. An unknown name is a wrong command line
 * (exit 2, as a wrong flag is); a file that fails to load is a failure at run time (1).
 */
export function checkScenarioName(scenario: string): void {
  if (isPath(scenario) || SCENARIO_NAMES.includes(scenario)) return
  const suggestion = closest(scenario, SCENARIO_NAMES)
  const file = existsSync(scenario)
    ? ` To load the file ${scenario}, give its path: --scenario ./${scenario}.`
    : ' Your own scenario is a path to its JSON file, e.g. --scenario ./my-scenario.json.'
  throw new CliError(
    `Unknown scenario "${scenario}".${suggestion ? ` Did you mean ${suggestion}?` : ''} The scenarios are ${SCENARIO_NAMES.join(', ')}.${file} Run petstore-sandbox scenarios to see what each does.`,
    EXIT_USAGE,
  )
}
