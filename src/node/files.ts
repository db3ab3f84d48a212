import { readFileSync, statSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { SandboxError } from '../core/common/errors.js'
import { resolveFixtures, type Fixtures } from '../core/data/fixtures.js'
import type { SandboxOptions } from '../core/sandbox.js'
import { releaseStoreOf } from '../core/sandbox-options.js'
import { checkOptionNames } from '../core/sandbox-options.js'
import { parseScenario, type Scenario } from '../core/scenarios/scenarios.js'

/** Node options: the scenario and fixtures may also be file paths. */
export interface NodeSandboxOptions extends Omit<
  SandboxOptions,
  'scenario' | 'fixtures' | 'scenarios'
> {
  /** A scenario name, a definition, or a path to a scenario JSON file. */
  scenario?: string | Scenario
  /** More scenarios: definitions or paths to JSON files. */
  scenarios?: Array<string | Scenario>
  /** Fixtures, or a path to a fixtures JSON file or a folder of them. */
  fixtures?: Fixtures | string
}

/** Whether a scenario option is a file path rather than a name. */
export function isPath(value: string) {
  return value.endsWith('.json') || value.includes('/') || value.includes('\\')
}

function readJson(
  path: string,
  what: 'scenario' | 'fixtures' | 'session export',
): unknown {
  const fix =
    what === 'scenario'
      ? 'Check the path; scenario files are JSON (see docs/scenarios.md#your-own-scenarios).'
      : what === 'fixtures'
        ? 'Check the path; fixtures are a JSON file or a folder with api-keys.json, categories.json, pets.json (see docs/options.md#fixtures).'
        : 'Check the path; --load takes what GET /__sandbox/export returned (see docs/sessions-carry.md).'
  let text: string
  try {
    text = readFileSync(path, 'utf8')
  } catch (error) {
    throw SandboxError.for(
      'FILE_NOT_READABLE',
      `load the ${what} file ${path}`,
      (error as NodeJS.ErrnoException).code === 'ENOENT'
        ? 'the file does not exist'
        : (error as Error).message,
      fix,
    )
  }
  try {
    return JSON.parse(withoutBom(text))
  } catch (error) {
    throw SandboxError.for(
      what === 'scenario'
        ? 'INVALID_SCENARIO'
        : what === 'fixtures'
          ? 'INVALID_FIXTURES'
          : 'INVALID_SESSION_EXPORT',
      `load the ${what} file ${path}`,
      `it is not valid JSON (${(error as Error).message})`,
      'Fix the JSON syntax at the position named.',
    )
  }
}

/**
 * The text without the byte order mark (U+FEFF) Windows editors put at the start of UTF-8
 * files: JSON.parse refuses it, and the file is otherwise fine. Only a leading one is
 * skipped; one inside the text is still a syntax error at its position.
 */
function withoutBom(text: string): string {
  return text.startsWith('\uFEFF') ? text.slice(1) : text
}

/**
 * Reads and validates a scenario file; errors name the file, the field and the fix.
 * `maxPets` (the sandbox's option) bounds the ids of its pets.
 */
export function loadScenarioFile(path: string, maxPets?: number): Scenario {
  const absolute = resolve(path)
  return parseScenario(readJson(absolute, 'scenario'), absolute, { maxPets })
}

/** Reads a session export file (`--load`) as JSON; `importSession` validates it. */
export function readSessionFile(path: string): unknown {
  return readJson(resolve(path), 'session export')
}

/** Reads fixtures from a JSON file, or from a folder of api-keys.json, categories.json and pets.json. */
export function loadFixturesFile(path: string, maxPets?: number): Fixtures {
  const absolute = resolve(path)
  let isDirectory = false
  try {
    isDirectory = statSync(absolute).isDirectory()
  } catch {
    // readJson reports the missing file.
  }
  if (!isDirectory) {
    const fixtures = readJson(absolute, 'fixtures')
    resolveFixtures(fixtures, absolute, maxPets)
    return fixtures as Fixtures
  }
  const parts: Record<string, unknown> = {}
  for (const [field, file] of [
    ['apiKeys', 'api-keys.json'],
    ['categories', 'categories.json'],
    ['pets', 'pets.json'],
  ] as const) {
    const filePath = join(absolute, file)
    let exists = false
    try {
      exists = statSync(filePath).isFile()
    } catch {
      exists = false
    }
    if (!exists) continue
    const value = readJson(filePath, 'fixtures')
    resolveFixtures({ [field]: value }, filePath, maxPets)
    parts[field] = value
  }
  if (Object.keys(parts).length === 0) {
    // A folder of none of them (a typo in a file's name, the wrong folder) would start
    // the sandbox on the default data without a word.
    throw SandboxError.for(
      'INVALID_FIXTURES',
      `load the fixtures from ${absolute}`,
      'the folder holds none of api-keys.json, categories.json and pets.json',
      'Name the files exactly so (any of the three), or point to the folder that holds them; see docs/options.md#fixtures.',
    )
  }
  return parts as Fixtures
}

/** Turns paths in Node options into data, so the core never touches the file system. */
export function resolveNodeOptions(options: NodeSandboxOptions): SandboxOptions {
  try {
    return readOptionFiles(options)
  } catch (error) {
    releaseStoreOf(options)
    throw error
  }
}

function readOptionFiles(options: NodeSandboxOptions): SandboxOptions {
  checkOptionNames(options)
  const { scenario, scenarios, fixtures, ...rest } = options
  const { maxPets } = options
  // Not an array: passed on as it is, for createSandbox to refuse naming the option.
  const loaded = Array.isArray(scenarios)
    ? scenarios.map((entry) =>
        typeof entry === 'string' ? loadScenarioFile(entry, maxPets) : entry,
      )
    : (scenarios as unknown as Scenario[] | null | undefined)
  let startup: string | Scenario | undefined = scenario
  if (typeof scenario === 'string' && isPath(scenario)) {
    startup = loadScenarioFile(scenario, maxPets)
  }
  return {
    ...rest,
    ...(startup == null ? {} : { scenario: startup }),
    ...(loaded == null || loaded.length === 0 ? {} : { scenarios: loaded }),
    ...(fixtures == null
      ? {}
      : {
          fixtures:
            typeof fixtures === 'string' ? loadFixturesFile(fixtures, maxPets) : fixtures,
        }),
  }
}
