import { SandboxError } from '../common/errors.js'
import type { Finding, Report } from './report-card.js'

// How a test fails a client that misbehaves: no finding above `info`
// (docs/report-card.md#in-tests).

/**
 * The findings of a report above `info`: what a test of a well-behaved client expects
 * none of.
 *
 * @example
 * expect(problems(sandbox.report())).toEqual([])
 * @see docs/report-card.md
 */
export function problems(report: Report): Finding[] {
  return report.findings.filter((finding) => finding.severity !== 'info')
}

/**
 * Throws when a report has findings above `info`, with a message listing each one, its
 * requests and its fix: a one-line check for a test of a client, in any test runner.
 *
 * @example
 * await client.run()
 * assertWellBehaved(sandbox.report()) // SandboxError CLIENT_MISBEHAVED, listing what to fix
 * @see docs/report-card.md
 */
export function assertWellBehaved(report: Report): void {
  const found = problems(report)
  if (found.length === 0) return
  const lines = found.map(
    (finding) =>
      `- ${finding.severity} ${finding.code}: ${finding.count} request(s), the latest ${finding.requestIds.join(', ')}. ${finding.message} Fix: ${finding.fix}`,
  )
  throw new SandboxError(
    'CLIENT_MISBEHAVED',
    [
      `Failed to pass the report card of the session "${report.session}": ${found.length} finding(s) above info.`,
      ...lines,
      'Change the client as each fix says; GET /__sandbox/report and the inspector show the same report.',
    ].join('\n'),
  )
}
