import { writeFileSync } from 'node:fs'
import { checkDeployment } from '../check/check-deployment.js'
import { junitOf, maskKey, planLine, resultLines, summaryLine } from '../check/format.js'
import { CliError, EXIT_FAILURE, EXIT_USAGE } from './cli-error.js'
import { CHECK_KEY_ENV } from './flags.js'

/** The flags of `petstore-sandbox check`, as yargs parsed and checked them. */
export interface CheckFlags {
  baseUrl?: string
  key?: string
  writes?: boolean
  rateLimits?: boolean
  pace?: number
  timeout?: number
  json?: boolean
  junit?: string
}

/**
 * `petstore-sandbox check <base-url>`: one line per check, then a summary (or the report
 * as JSON); exit 0 when no check failed, 1 when one did, 2 for a wrong command line.
 */
export async function runCheck(flags: CheckFlags): Promise<void> {
  const baseUrl = checkBaseUrl(flags.baseUrl)
  const key = flags.key ?? process.env[CHECK_KEY_ENV]
  if (key === undefined || key.trim() === '')
    throw new CliError(
      `check needs an API key: --key <api-key>, or ${CHECK_KEY_ENV} in the environment (safer: it stays out of the shell's history). Against the sandbox, e.g. --key sandbox-enterprise-key.`,
      EXIT_USAGE,
    )
  if (/\s/.test(key))
    throw new CliError('--key must be one word (the key, without "Bearer ").', EXIT_USAGE)
  const out = (text: string) => {
    if (!flags.json) process.stdout.write(`${text}\n`)
  }
  out(
    `Checking ${baseUrl} with the key ${maskKey(key)}; read-only${flags.writes ? ', with --writes' : ''}${flags.rateLimits ? ', with --rate-limits' : ''}; time budget ${flags.timeout ?? 60} s.`,
  )
  const report = await checkDeployment({
    baseUrl,
    key,
    ...(flags.writes ? { writes: true } : {}),
    ...(flags.rateLimits ? { rateLimits: true } : {}),
    ...(flags.pace === undefined ? {} : { pace: flags.pace }),
    timeoutMs: (flags.timeout ?? 60) * 1000,
    onPlan: (plan) => out(planLine(plan)),
    onResult: (result) => out(resultLines(result)),
  })
  if (flags.junit) {
    try {
      writeFileSync(flags.junit, junitOf(report))
    } catch (error) {
      throw new CliError(
        `Failed to write --junit ${flags.junit}: ${(error as Error).message}. Check that its folder exists and is writable.`,
        EXIT_FAILURE,
      )
    }
  }
  if (flags.json) process.stdout.write(`${JSON.stringify(report, null, 2)}\n`)
  else out(summaryLine(report))
  if (!report.ok) process.exitCode = EXIT_FAILURE
}

function checkBaseUrl(text: string | undefined): string {
  let url: URL | undefined
  try {
    url = new URL(text ?? '')
  } catch {
    url = undefined
  }
  if (!url || !/^https?:$/.test(url.protocol))
    throw new CliError(
      `check needs the base address of the API as an http(s) URL ending in /v1, e.g. https://staging.example.com/v1; got ${JSON.stringify(text ?? '')}.`,
      EXIT_USAGE,
    )
  return (text as string).replace(/\/+$/, '')
}
