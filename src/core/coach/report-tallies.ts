import type { Finding, FindingCode, Severity } from './findings.js'
import {
  describeFinding,
  describeOthers,
  forClient,
  type ClientLibrary,
} from './report-card-text.js'

// The findings of a report card as counts and examples, bounded whatever the requests:
// the card (report-card.ts) decides what a request is; this keeps how often, and where.

/** The most example request ids a finding keeps. */
export const REPORT_EXAMPLES = 5
/**
 * The most findings one card tells apart freely; past it, a new field of a 400 joins its
 * error code's finding.
 */
const MAX_TALLIES = 32
/**
 * The most findings one card tells apart at all. Error codes are not a bounded set (a
 * runtime scenario names its own, and can be replaced with a new one for every request):
 * past it, a new group of any shape joins the one catch-all finding of its code and
 * severity, so the card stays small whatever its requests.
 */
export const MAX_GROUPED = 40
/**
 * The most findings of a card: MAX_GROUPED, plus the findings that have no group (at most
 * 11 codes and severities: the 10 codes other than 400s' and 401s', endpoint_removed both
 * as an error and as info; they are always told apart, an error never hides in a
 * catch-all), plus one catch-all for each code and severity that has groups (400s and
 * 401s, warning and info: 4).
 */
export const MAX_FINDINGS = MAX_GROUPED + 11 + 4
/**
 * The longest group a finding keeps: codes and fields come from scenarios and clients.
 * Theirs are shorter (codes up to 64 characters, fields up to 41): this is the backstop.
 */
const MAX_GROUP_LENGTH = 120

const SEVERITY_RANK: Record<Severity, number> = { error: 0, warning: 1, info: 2 }

/** The count and examples of one finding; its words are made when the report is. */
interface Tally {
  code: FindingCode
  severity: Severity
  /**
   * What tells this finding apart from others of its code (an error code, a field); of
   * a catch-all, the group of its latest request, as an example.
   */
  group: string
  count: number
  /** Oldest first, at most REPORT_EXAMPLES. */
  ids: number[]
  /** A catch-all: the groups past MAX_GROUPED of its code and severity. */
  other: boolean
  /** The numbers of its latest request ("sent 30.0 s after a 429 ..."), when it has any. */
  detail?: string | undefined
  /** The retry library its latest request's User-Agent named, for the fix. */
  client?: ClientLibrary | undefined
}

/** The tallies of one card, by "severity code group". Made at its first finding. */
export class Tallies {
  readonly #tallies = new Map<string, Tally>()

  /** Counts request `id` under its finding, made if it is new and there is room. */
  note(
    code: FindingCode,
    severity: Severity,
    group: string,
    id: number,
    detail?: string,
    client?: ClientLibrary,
  ) {
    // A length check on every request; a copy only for a group longer than any of ours.
    if (group.length > MAX_GROUP_LENGTH) group = group.slice(0, MAX_GROUP_LENGTH)
    const tally =
      this.#tallies.get(`${severity} ${code} ${group}`) ??
      this.#newGroup(code, severity, group)
    tally.count++
    if (tally.ids.length >= REPORT_EXAMPLES) tally.ids.shift()
    tally.ids.push(id)
    // Of the latest request: its numbers, and what to set in the library it named
    // (none, when it has none: older numbers would speak of another request).
    tally.detail = detail
    tally.client = client
  }

  /** The findings, errors first, then by code and group, each catch-all last of its code. */
  findings(): Finding[] {
    const sorted = [...this.#tallies.values()].sort(
      (a, b) =>
        SEVERITY_RANK[a.severity] - SEVERITY_RANK[b.severity] ||
        compare(a.code, b.code) ||
        Number(a.other) - Number(b.other) ||
        compare(a.group, b.group),
    )
    return sorted.map((tally) => ({
      code: tally.code,
      severity: tally.severity,
      count: tally.count,
      ...words(tally),
      requestIds: [...tally.ids].reverse(),
    }))
  }

  /**
   * The tally of a group the card has no finding for: a new one while the card has room;
   * past MAX_TALLIES, a field of a 400 joins its error code's finding; past MAX_GROUPED,
   * what has no finding yet joins the catch-all of its code and severity. A finding with
   * no group is always made (there are at most 10 of them).
   */
  #newGroup(code: FindingCode, severity: Severity, group: string): Tally {
    const tallies = this.#tallies
    let own = group
    if (group !== '' && tallies.size >= MAX_TALLIES) {
      const space = group.indexOf(' ')
      if (space >= 0) {
        own = group.slice(0, space)
        const ofCode = tallies.get(`${severity} ${code} ${own}`)
        if (ofCode) return ofCode
      }
      if (tallies.size >= MAX_GROUPED) return this.#other(code, severity, group)
    }
    const tally: Tally = { code, severity, group: own, count: 0, ids: [], other: false }
    tallies.set(`${severity} ${code} ${own}`, tally)
    return tally
  }

  /**
   * The catch-all of a code and severity, with `group` noted in it. Its name in the map,
   * "severity code", has one space where every other has two: no group can take it.
   */
  #other(code: FindingCode, severity: Severity, group: string): Tally {
    const name = `${severity} ${code}`
    let other = this.#tallies.get(name)
    if (!other) {
      other = { code, severity, group, count: 0, ids: [], other: true }
      this.#tallies.set(name, other)
    }
    // The latest group is the example: it is the newest of the request ids shown.
    other.group = group
    return other
  }
}

/** The message and fix of a tally, made when a report is asked for. */
function words(tally: Tally): { message: string; fix: string } {
  const { code, severity, group, detail, client } = tally
  const words = tally.other
    ? describeOthers(code, severity, group, MAX_GROUPED)
    : describeFinding(code, severity, group)
  const setting = client && forClient(code, client)
  return {
    message: detail ? `${words.message} ${detail}` : words.message,
    fix: setting ? `${words.fix} ${setting}` : words.fix,
  }
}

function compare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0
}
