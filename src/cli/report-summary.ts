import type { Report } from '../core/coach/report-card.js'
import type { Sandbox } from '../core/world/sandbox-types.js'
import { YELLOW, type Paint } from './colors.js'
import type { LogFormat } from './flags.js'

/**
 * What the CLI prints when it stops: one line per session whose report card has errors
 * or warnings (the default session first, then the live ones), so a developer who
 * worked against the server all afternoon sees what their client does wrong.
 * @see docs/report-card.md
 */
export function formatReportSummary(
  sandbox: Sandbox,
  format: LogFormat,
  paint: Paint,
): string[] {
  const reports = [
    sandbox.report(),
    ...sandbox.sessions().map((session) => sandbox.session(session.id).report()),
  ]
  return reports.flatMap((report) => {
    const problems = report.findings.filter((finding) => finding.severity !== 'info')
    if (problems.length === 0) return []
    if (format === 'json') {
      return [
        JSON.stringify({
          type: 'report',
          session: report.session,
          requests: report.requests,
          findings: problems.map(({ code, severity, count }) => ({
            code,
            severity,
            count,
          })),
        }),
      ]
    }
    return [paint(YELLOW, `⚠ report card, ${describe(report, problems)}`)]
  })
}

function describe(report: Report, problems: Report['findings']): string {
  const part = (severity: 'error' | 'warning') => {
    // One entry a code (a code may have several findings: one a field, one a key's fault),
    // with the requests that showed it.
    const counts = new Map<string, number>()
    for (const finding of problems) {
      if (finding.severity !== severity) continue
      counts.set(finding.code, (counts.get(finding.code) ?? 0) + finding.count)
    }
    if (counts.size === 0) return []
    const codes = [...counts]
      .map(([code, count]) => `${code}: ${count} request${count === 1 ? '' : 's'}`)
      .join(', ')
    return [`${counts.size} ${severity}${counts.size === 1 ? '' : 's'} (${codes})`]
  }
  const where =
    report.session === 'default'
      ? 'GET /__sandbox/report'
      : `GET /__sandbox/report with X-Sandbox-Session: ${report.session}`
  return `session ${report.session}: ${[...part('error'), ...part('warning')].join(', ')} in ${report.requests} request${report.requests === 1 ? '' : 's'}; see ${where}, or the inspector's Report view.`
}
