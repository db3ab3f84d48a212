import yargs, { type Argv } from 'yargs'
import { SandboxError } from '../core/common/errors.js'
import { packageAssets } from '../express/package-assets.js'
import { CliError, EXIT_CODES_HELP, EXIT_FAILURE, EXIT_USAGE } from './cli-error.js'
import { createPaint } from './colors.js'
import {
  CHECK_OPTIONS,
  needsValue,
  SCENARIOS_OPTIONS,
  SERVE_OPTIONS,
  type Flag,
} from './flags.js'
import { closest } from '../core/common/suggest.js'

const HELP_HINT = 'Run petstore-sandbox --help to see every option.'

/**
 * Runs the `petstore-sandbox` command line: the server (default) or `scenarios`. Any
 * failure is one line on stderr and a non-zero exit: 2 for a wrong command line, 1 for
 * everything else.
 *
 * @example
 * import { main } from 'petstore-sandbox/dist/cli/index.js'
 * await main(['--port', '4010', '--scenario', 'rate-limited'])
 * @see docs/server.md
 */
export async function main(argv: string[] = process.argv.slice(2)): Promise<void> {
  // A reader that stops early (`check ... | head`) closes the pipe: what is written after
  // goes nowhere, quietly, and the run ends as it would have (its exit code too), never
  // with a stack trace of EPIPE.
  for (const stream of [process.stdout, process.stderr])
    stream.on('error', (error: NodeJS.ErrnoException) => {
      if (error.code !== 'EPIPE' && error.code !== 'ERR_STREAM_DESTROYED') throw error
    })
  try {
    await parse(argv)
  } catch (error) {
    const message =
      error instanceof CliError || error instanceof SandboxError
        ? error.message
        : ((error as Error)?.stack ?? String(error))
    process.stderr.write(`petstore-sandbox: ${message}\n`)
    process.exit(error instanceof CliError ? error.exitCode : EXIT_FAILURE)
  }
}

async function parse(argv: string[]) {
  const { version } = packageAssets()
  const cli = yargs(argv)
  // The options of the command yargs chose (its builder ran), for the messages.
  let command: Record<string, Flag> = SERVE_OPTIONS
  await cli
    .scriptName('petstore-sandbox')
    // Its messages in English whatever LANG says: usageMessage reads the unknown ones.
    .locale('en')
    .parserConfiguration({ 'duplicate-arguments-array': true, 'strip-aliased': true })
    .usage(
      '$0 [options]\n\nThe Pet Adoption Service v1 API as a local, stateful sandbox: deterministic data, demo keys, rate limits and scenarios.',
    )
    .command(
      '$0',
      'Start the sandbox server',
      (builder) =>
        builder
          .options((command = SERVE_OPTIONS))
          .example('$0', 'Serve on http://127.0.0.1:4010/v1')
          .example(
            '$0 --scenario rate-limited',
            'Every key is over its limit: 429, Retry-After, then a ban',
          )
          .example('$0 --persist .sandbox-state.json', 'Created pets survive a restart'),
      async (flags) => {
        // Loaded only now: a usage error or --help answers before msw, zod and express load.
        const [
          { serve },
          { checkScenarioName },
          { findMswProblem },
          { BUNDLED_MSW_VERSION },
        ] = await Promise.all([
          import('./serve.js'),
          import('./scenario-name.js'),
          import('../node/check-msw.js'),
          import('./bundled-msw.js'),
        ])
        // The CLI runs on the msw it was built with (a build with msw 3 needs Node 22.12).
        const mswProblem = findMswProblem(
          'petstore-sandbox (the CLI)',
          BUNDLED_MSW_VERSION,
          process.versions.node,
        )
        if (mswProblem) throw mswProblem
        if (flags.scenario !== undefined) checkScenarioName(flags.scenario)
        await serve(flags)
      },
    )
    .command(
      'scenarios',
      'List the scenarios with their descriptions',
      (builder) =>
        builder.options((command = SCENARIOS_OPTIONS)).epilogue(EXIT_CODES_HELP),
      async ({ scenario }) => {
        const { listScenarios } = await import('./list-scenarios.js')
        process.stdout.write(`${listScenarios(scenario, createPaint(process.stdout))}\n`)
      },
    )
    .command(
      'check <base-url>',
      "Check a live deployment of the API (production, staging, another implementation) against the API document and the sandbox's decisions",
      (builder) =>
        builder
          .positional('base-url', {
            type: 'string',
            describe: 'The base address of the API, ending in /v1',
          })
          .options((command = CHECK_OPTIONS))
          .epilogue(EXIT_CODES_HELP)
          .example(
            '$0 check https://staging.example.com/v1 --key "$PETSTORE_SANDBOX_CHECK_KEY"',
            'Read-only checks; exit 1 when one fails',
          )
          .example(
            '$0 check http://127.0.0.1:4010/v1 --key sandbox-enterprise-key --writes --junit check.xml',
            'Also create a pet; JUnit XML for CI',
          ),
      async (flags) => {
        const { runCheck } = await import('./check-command.js')
        await runCheck(flags)
      },
    )
    .strict()
    // The top level's epilogue shows only in its own --help: each command repeats it.
    .epilogue(EXIT_CODES_HELP)
    .version(version)
    .alias('version', 'v')
    .help()
    .alias('help', 'h')
    .wrap(Math.min(110, process.stdout.columns || 100))
    .fail((message, error) => {
      // Errors of our own (a handler's) pass through; yargs' own, and what a coerce
      // threw, are usage errors.
      if (error && error.name !== 'YError') throw error
      throw new CliError(
        usageMessage(
          message ?? error?.message ?? 'invalid command line',
          argv,
          cli,
          command,
        ),
        EXIT_USAGE,
      )
    })
    .parseAsync()
}

/**
 * A usage error of yargs as one line. yargs reports an unknown option and a missing value
 * only in its message, so those two are read from it (in English: see `.locale`).
 */
function usageMessage(
  message: string,
  argv: string[],
  cli: Argv,
  command: Record<string, Flag>,
) {
  const { names, aliases } = knownOptions(cli)
  const missing = /^Not enough arguments following: (.+)$/.exec(message)
  if (missing) {
    const typed = missing[1] as string
    const name = aliases.get(typed) ?? typed
    return `${needsValue(name, command[name])}. ${HELP_HINT}`
  }
  if (/^Not enough non-option arguments/.test(message) && argv[0] === 'check')
    return `check needs the base address of the API, ending in /v1: petstore-sandbox check https://staging.example.com/v1 --key <api-key>. ${HELP_HINT}`
  const unknown = /^Unknown arguments?: (.+)$/s.exec(message)
  if (!unknown)
    return `${message.replace(/\s*\n\s*/g, ' ').replace(/\.$/, '')}. ${HELP_HINT}`
  const first = (unknown[1] as string).split(', ')[0] as string
  if (argv.includes(first)) {
    return `Unknown command "${first}": run petstore-sandbox with options only to start the server, petstore-sandbox scenarios to list the scenarios, or petstore-sandbox check <base-url> to check a deployment. ${HELP_HINT}`
  }
  const option = first.length > 1 ? `--${first}` : `-${first}`
  const elsewhere = [
    ...Object.keys(SERVE_OPTIONS),
    ...Object.keys(SCENARIOS_OPTIONS),
    ...Object.keys(CHECK_OPTIONS),
  ]
  if (elsewhere.includes(first) && !names.includes(first)) {
    return `${option} does not apply to petstore-sandbox ${argv[0]}. ${HELP_HINT}`
  }
  const suggestion = first.length > 1 ? closest(first, names) : undefined
  return `Unknown option ${option}.${suggestion ? ` Did you mean --${suggestion}?` : ''} ${HELP_HINT}`
}

/**
 * The options of the command being parsed, `help` and `version` included, and their
 * aliases, as yargs holds them: `getOptions()` is a public method its typings leave out.
 */
function knownOptions(cli: Argv) {
  const { key, alias } = (cli as Argv & { getOptions(): YargsOptions }).getOptions()
  const aliases = new Map(
    Object.entries(alias).flatMap(([name, short]) =>
      short.map((a) => [a, name] as const),
    ),
  )
  return { names: Object.keys(key).filter((name) => !aliases.has(name)), aliases }
}

interface YargsOptions {
  key: Record<string, unknown>
  alias: Record<string, string[]>
}
