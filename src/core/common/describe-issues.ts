import { config } from 'zod/mini'
import { globalConfig, type $ZodIssue, type $ZodType } from 'zod/v4/core'
import en from 'zod/v4/locales/en.js'
import { truncate } from './text.js'

// The core validates with zod's mini build (zod/mini): the same parser, issues and JSON
// Schema output as the classic build, without its method-chaining classes, which were
// about 70 KB (minified) of the browser entry (issue 16). The classic build installs
// English messages when it makes its first schema; the mini build leaves them out
// ("Invalid input"). API error messages and SandboxErrors quote some of them, so the
// core installs the same ones, unless the application set a locale of its own.
if (!globalConfig.localeError) config(en())

/**
 * Renders zod issues as "field: rule" phrases, so both API error messages and thrown
 * SandboxErrors name the field and what is allowed.
 */
export function describeIssues(
  issues: readonly $ZodIssue[],
  root = 'body',
  /** The schema the issues are of: its integer fields are named "integer", not "number". */
  schema?: $ZodType,
): string {
  // A value past 2^53 breaks two rules (safe integer, maximum) with the same words.
  const phrases = issues.map(
    (issue) =>
      `${fieldPath(issue.path, root)} ${describeIssue(issue, schema && isIntegerAt(schema, issue.path))}`,
  )
  return [...new Set(phrases)].join('; ')
}

export function fieldPath(path: readonly PropertyKey[], root: string): string {
  if (path.length === 0) return root
  return path
    .map((part, index) =>
      typeof part === 'number'
        ? `[${part}]`
        : index === 0
          ? String(part)
          : `.${String(part)}`,
    )
    .join('')
}

function describeIssue(issue: $ZodIssue, integer = false): string {
  switch (issue.code) {
    case 'invalid_type': {
      // zod expects a "number" of an integer field too; the seed's type is "integer".
      const expected = integer && issue.expected === 'number' ? 'integer' : issue.expected
      return issue.input === undefined
        ? `is required (${expected})`
        : `must be ${article(expected)}, got ${typeName(issue.input)}`
    }
    case 'too_small':
      if (issue.origin === 'string') return 'must not be empty'
      if (issue.origin === 'array') return `must have at least ${issue.minimum} item(s)`
      return `must be ${issue.inclusive ? 'at least' : 'greater than'} ${issue.minimum}`
    case 'too_big':
      if (issue.origin === 'string') return `must be at most ${issue.maximum} characters`
      if (issue.origin === 'array') return `must have at most ${issue.maximum} item(s)`
      return `must be at most ${issue.maximum}`
    case 'invalid_value':
      return `must be one of ${issue.values.map((value) => JSON.stringify(value)).join(', ')}`
    case 'unrecognized_keys':
      return `has unknown field(s) ${issue.keys.map((key) => `"${key}"`).join(', ')}`
    default:
      return issue.message.charAt(0).toLowerCase() + issue.message.slice(1)
  }
}

/**
 * Whether the field at `path` of `schema` is an integer (a number with an integer
 * check, `z.int()`). Optional, default, pipe and the like are looked through.
 */
function isIntegerAt(schema: $ZodType, path: readonly PropertyKey[]): boolean {
  let node: $ZodType | undefined = unwrap(schema)
  for (const part of path) {
    const def = node?._zod.def as unknown as Record<string, unknown> | undefined
    if (def?.type === 'object') {
      const shape = def.shape as Record<PropertyKey, $ZodType>
      node = Object.hasOwn(shape, part) ? shape[part] : undefined
    } else if (def?.type === 'array') node = def.element as $ZodType
    else if (def?.type === 'record') node = def.valueType as $ZodType
    else return false
    node = node && unwrap(node)
  }
  if (node?._zod.def.type !== 'number') return false
  return (node._zod.def.checks ?? []).some((check) => {
    const def = check._zod.def as { check: string; format?: string }
    return def.check === 'number_format' && /int/.test(def.format ?? '')
  })
}

function unwrap(schema: $ZodType): $ZodType {
  let node = schema
  for (;;) {
    const def = node._zod.def as unknown as Record<string, unknown>
    const inner = (def.innerType ?? (def.type === 'pipe' ? def.out : undefined)) as
      $ZodType | undefined
    if (!inner) return node
    node = inner
  }
}

function article(expected: string): string {
  if (expected === 'int') return 'an integer'
  return /^[aeiou]/.test(expected) ? `an ${expected}` : `a ${expected}`
}

export function typeName(value: unknown): string {
  if (value === null) return 'null'
  if (Array.isArray(value)) return 'an array'
  if (typeof value === 'number' && !Number.isFinite(value))
    return 'a number too large to represent'
  if (
    typeof value === 'number' &&
    !Number.isSafeInteger(value) &&
    Number.isInteger(value)
  )
    return 'an integer past 2^53'
  if (typeof value === 'string') return `the string ${JSON.stringify(truncate(value))}`
  return typeof value === 'object' ? 'an object' : `${typeof value} ${String(value)}`
}

/**
 * A value as JSON for a message, cut to `max` characters. What JSON cannot write (a
 * BigInt, a cycle, a function, NaN, undefined) is named by its kind instead, so a
 * message about a bad option never throws in its turn.
 */
export function quoted(value: unknown, max = 60): string {
  if (typeof value === 'number' && !Number.isFinite(value)) return String(value)
  if (typeof value === 'bigint') return `the BigInt ${truncate(String(value), max)}n`
  if (typeof value === 'function') return 'a function'
  let text: string | undefined
  try {
    text = JSON.stringify(value)
  } catch {
    return typeName(value)
  }
  return text === undefined ? typeof value : truncate(text, max)
}
