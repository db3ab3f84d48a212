import type { CheckPlan, CheckReport } from './check-deployment.js'
import type { CheckResult } from './judge.js'

// The check's output: a line (or a few) per check and a summary for people, JUnit XML for
// CI. The key is never written: a repeat reads it from $PETSTORE_SANDBOX_CHECK_KEY.

/** The key as it may be shown: its first 4 characters and its length. */
export function maskKey(key: string): string {
  return `${key.slice(0, Math.min(4, Math.floor(key.length / 3)))}… (${key.length} characters)`
}

/** The words before the check's run, naming what it will send. */
export function planLine(plan: CheckPlan): string {
  const rate =
    plan.remaining === undefined
      ? 'the first answer carried no X-RateLimit-* headers, so the run is not paced by them'
      : `X-RateLimit-Remaining ${plan.remaining} of ${plan.limit} (resets ${new Date((plan.reset ?? 0) * 1000).toISOString()}); at most half of a window is spent, never below 2`
  return `Sending at most ${plan.requests} requests; ${rate}.`
}

/** One check as text: PASS, FAIL (with expected, seen, a repeat) or SKIP (why). */
export function resultLines(result: CheckResult): string {
  const kind = result.holds === 'document' ? 'API document' : 'sandbox decision'
  if (result.status === 'passed') return `PASS  ${result.name} [${kind}]`
  if (result.status === 'skipped') return `SKIP  ${result.name} [${kind}]: ${result.why}`
  const label = result.holds === 'document' ? 'FAIL' : 'DRIFT'
  return [
    `${label.padEnd(6)}${result.name} [${kind}${result.holds === 'decision' ? ': the server differs from the sandbox' : ''}]`,
    `      expected: ${result.expected}`,
    `      seen:     ${result.seen}`,
    ...(result.repeat ? [`      repeat:   ${result.repeat}`] : []),
  ].join('\n')
}

/** The summary line. */
export function summaryLine(report: CheckReport): string {
  const { summary } = report
  const parts = [
    `${summary.passed} passed`,
    `${summary.failed} failed`,
    `${summary.skipped} skipped`,
  ]
  const failures =
    summary.failed === 0
      ? ''
      : ` (${summary.brokenDocument} against the API document, ${summary.drift} drift from the sandbox's decisions)`
  return `${parts.join(', ')}${failures}; ${summary.requests} requests in ${(summary.durationMs / 1000).toFixed(1)} s against ${report.baseUrl}.`
}

/** Text as XML attribute or element content; characters XML 1.0 cannot hold are dropped. */
const escape = (text: string) =>
  [...text]
    .filter((char) => {
      const code = char.charCodeAt(0)
      return code >= 0x20 || code === 0x09 || code === 0x0a || code === 0x0d
    })
    .join('')
    .replace(/[<>&"']/g, (char) => `&#${char.charCodeAt(0)};`)

/** The report as JUnit XML: one testcase per check, in two suites (document, decisions). */
export function junitOf(report: CheckReport): string {
  const suite = (holds: CheckResult['holds'], name: string) => {
    const cases = report.results.filter((result) => result.holds === holds)
    const body = cases.map((result) => {
      const open = `    <testcase classname="petstore-sandbox.check.${holds}" name="${escape(result.name)}"`
      if (result.status === 'passed') return `${open}/>`
      if (result.status === 'skipped')
        return `${open}>\n      <skipped message="${escape(result.why ?? '')}"/>\n    </testcase>`
      const detail = `expected: ${result.expected}\nseen: ${result.seen}${result.repeat ? `\nrepeat: ${result.repeat}` : ''}`
      return `${open}>\n      <failure message="${escape(`expected ${result.expected}`)}">${escape(detail)}</failure>\n    </testcase>`
    })
    const count = (status: CheckResult['status']) =>
      cases.filter((result) => result.status === status).length
    return `  <testsuite name="${name}" tests="${cases.length}" failures="${count('failed')}" skipped="${count('skipped')}">\n${body.join('\n')}\n  </testsuite>`
  }
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<testsuites name="petstore-sandbox check ${escape(report.baseUrl)}" tests="${report.results.length}" failures="${report.summary.failed}" skipped="${report.summary.skipped}" time="${(report.summary.durationMs / 1000).toFixed(3)}">`,
    suite('document', 'the API document'),
    suite('decision', "the sandbox's decisions (drift)"),
    '</testsuites>',
    '',
  ].join('\n')
}
