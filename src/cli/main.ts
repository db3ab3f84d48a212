import yargs from 'yargs'
import { SandboxError } from '../core/errors.js'
import { packageAssets } from '../express/package-assets.js'
import { CliError, EXIT_FAILURE, EXIT_USAGE } from './cli-error.js'
import { createPaint } from './colors.js'
import {
  parseCount,
  parseLatency,
  parseLogFormat,
  parsePort,
  parseSeed,
  parseText,
  suggestOption,
  type ServeFlags,
} from './flags.js'

const HELP_HINT = 'Run petstore-sandbox --help to see every option.'

/**
 * Runs the `petstore-sandbox` command line: the server (default) or `scenarios`. Any
 * failure is one line on stderr and a non-zero exit: 2 for a wrong command line, 1 for
 * everything else.
 *
 * @example
 * import { main } from 'petstore-sandbox/dist/cli/index.js'
 * await main(['--port', '4010', '--scenario', 'rate-limited'])
 * @see README.md#the-standalone-sandbox
 */
export async function main(argv: string[] = process.argv.slice(2)): Promise<void> {
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
  await yargs(argv)
    .scriptName('petstore-sandbox')
    .parserConfiguration({ 'duplicate-arguments-array': true, 'strip-aliased': true })
    .usage(
      '$0 [options]\n\nThe Pet Adoption Service v1 API as a local, stateful sandbox: deterministic data, demo keys, rate limits and scenarios.',
    )
    .command(
      '$0',
      'Start the sandbox server',
      (command) =>
        command
          .option('port', {
            alias: 'p',
            type: 'string',
            default: '4010',
            requiresArg: true,
            describe: 'Port to listen on (0 picks a free one)',
          })
          .option('host', {
            type: 'string',
            default: '127.0.0.1',
            requiresArg: true,
            describe: 'Address to listen on (0.0.0.0 for every interface)',
          })
          .option('seed', {
            type: 'string',
            requiresArg: true,
            describe: 'Faker seed: the same seed gives the same pets (default 42)',
          })
          .option('count', {
            type: 'string',
            requiresArg: true,
            describe: 'How many pets to seed (default 50)',
          })
          .option('scenario', {
            alias: 's',
            type: 'string',
            requiresArg: true,
            describe:
              'Startup scenario: a name (see `scenarios`) or a path to a scenario JSON file',
          })
          .option('fixtures', {
            type: 'string',
            requiresArg: true,
            describe:
              'Fixtures JSON file, or a folder with api-keys.json, categories.json, pets.json',
          })
          .option('latency', {
            type: 'string',
            requiresArg: true,
            describe: 'Delay every /v1 response: milliseconds (250) or a range (100-500)',
          })
          .option('persist', {
            type: 'string',
            requiresArg: true,
            describe: 'Keep created pets in this JSON file across restarts',
          })
          .option('watch', {
            alias: 'w',
            type: 'boolean',
            default: false,
            describe: 'Reload the --scenario file and --fixtures when they change',
          })
          .option('quiet', {
            alias: 'q',
            type: 'boolean',
            default: false,
            describe: 'No banner and no request log, only the URL and errors',
          })
          .option('log-format', {
            type: 'string',
            default: 'pretty',
            requiresArg: true,
            describe: 'Request log: pretty or json (one JSON object a line)',
          })
          .example('$0', 'Serve on http://127.0.0.1:4010/v1')
          .example(
            '$0 --scenario rate-limited',
            'Every key is over its limit: 429, Retry-After, then a ban',
          )
          .example('$0 --persist .sandbox-state.json', 'Created pets survive a restart'),
      async (args) => {
        const flags = toServeFlags(args)
        // Loaded only now: a usage error or --help answers before msw, faker and express load.
        const { serve } = await import('./serve.js')
        await serve(flags)
      },
    )
    .command(
      'scenarios',
      'List the scenarios with their descriptions',
      (command) =>
        command.option('scenario', {
          alias: 's',
          type: 'string',
          requiresArg: true,
          describe: 'Also list the scenario in this file',
        }),
      async (args) => {
        const file = parseText('scenario', './my-scenario.json')(args.scenario)
        const { listScenarios } = await import('./list-scenarios.js')
        process.stdout.write(`${listScenarios(file, createPaint(process.stdout))}\n`)
      },
    )
    .strict()
    .version(version)
    .alias('version', 'v')
    .help()
    .alias('help', 'h')
    .wrap(Math.min(110, process.stdout.columns || 100))
    .fail((message, error) => {
      // Errors of our own (a handler's) pass through; yargs' own are usage errors.
      if (error && error.name !== 'YError') throw error
      throw new CliError(
        usageMessage(message ?? error?.message ?? 'invalid command line', argv),
        EXIT_USAGE,
      )
    })
    .parseAsync()
}

/** yargs' messages as one line, with a suggestion for a misspelt option. */
function usageMessage(message: string, argv: string[]) {
  const unknown = /^Unknown arguments?: (.+)$/s.exec(message)
  if (unknown) {
    const first = (unknown[1] as string).split(', ')[0] as string
    if (argv.includes(first)) {
      return `Unknown command "${first}": run petstore-sandbox with options only to start the server, or petstore-sandbox scenarios to list the scenarios. ${HELP_HINT}`
    }
    const option = first.length > 1 ? `--${first}` : `-${first}`
    const suggestion = suggestOption(first)
    if (suggestion === first) {
      return `${option} does not apply to petstore-sandbox ${argv[0]}. ${HELP_HINT}`
    }
    return `Unknown option ${option}.${suggestion ? ` Did you mean --${suggestion}?` : ''} ${HELP_HINT}`
  }
  const missing = /^Not enough arguments following: (.+)$/.exec(message)
  if (missing) return `--${missing[1]} needs a value. ${HELP_HINT}`
  return `${message.replace(/\s*\n\s*/g, ' ').replace(/\.$/, '')}. ${HELP_HINT}`
}

function toServeFlags(args: Record<string, unknown>): ServeFlags {
  try {
    const flags: ServeFlags = {
      port: parsePort(args.port),
      host: parseText('host', '127.0.0.1')(args.host) ?? '127.0.0.1',
      watch: args.watch === true,
      quiet: args.quiet === true,
      logFormat: parseLogFormat(args['log-format'] ?? args.logFormat),
    }
    const seed = parseSeed(args.seed)
    const count = parseCount(args.count)
    const scenario = parseText('scenario', 'rate-limited')(args.scenario)
    const fixtures = parseText('fixtures', './fixtures')(args.fixtures)
    const latency = parseLatency(args.latency)
    const persist = parseText('persist', '.sandbox-state.json')(args.persist)
    if (seed !== undefined) flags.seed = seed
    if (count !== undefined) flags.count = count
    if (scenario !== undefined) flags.scenario = scenario
    if (fixtures !== undefined) flags.fixtures = fixtures
    if (latency !== undefined) flags.latency = latency
    if (persist !== undefined) flags.persist = persist
    return flags
  } catch (error) {
    if (error instanceof CliError) throw error
    throw new CliError(`${(error as Error).message}. ${HELP_HINT}`, EXIT_USAGE)
  }
}
