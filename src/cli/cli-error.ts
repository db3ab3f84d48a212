/**
 * Exit codes: 1 for a failure at run time, 2 for a wrong command line. The line between
 * them: a command line that would fail on any machine is wrong (an unknown command,
 * option or scenario name, a missing value, a value out of its range); one that is
 * well formed but fails on this machine failed at run time (a port in use, an address
 * the machine lacks, a file that is missing or broken, a check that found a problem).
 */
export const EXIT_FAILURE = 1
export const EXIT_USAGE = 2

/** The exit codes as `--help` states them (and docs/server.md). */
export const EXIT_CODES_HELP =
  'Exit codes: 0 success; 1 a failure at run time (a port in use, a file that is missing or broken, a check that found a problem); 2 a wrong command line (an unknown command, option or scenario name, a missing or invalid value).'

/** A failure the CLI reports as one line on stderr before exiting with `exitCode`. */
export class CliError extends Error {
  constructor(
    message: string,
    readonly exitCode: number = EXIT_FAILURE,
  ) {
    super(message)
    this.name = 'CliError'
  }
}
