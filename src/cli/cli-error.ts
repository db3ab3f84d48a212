/** Exit codes: 1 for a failure at run time, 2 for a wrong command line. */
export const EXIT_FAILURE = 1
export const EXIT_USAGE = 2

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
