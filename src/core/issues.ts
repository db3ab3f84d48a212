import type { z } from 'zod'

/**
 * Renders zod issues as "field: rule" phrases, so both API error messages and thrown
 * SandboxErrors name the field and what is allowed.
 */
export function describeIssues(
  issues: readonly z.core.$ZodIssue[],
  root = 'body',
): string {
  // A value past 2^53 breaks two rules (safe integer, maximum) with the same words.
  const phrases = issues.map(
    (issue) => `${fieldPath(issue.path, root)} ${describeIssue(issue)}`,
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

function describeIssue(issue: z.core.$ZodIssue): string {
  switch (issue.code) {
    case 'invalid_type':
      return issue.input === undefined
        ? `is required (${issue.expected})`
        : `must be ${article(issue.expected)}, got ${typeName(issue.input)}`
    case 'too_small':
      if (issue.origin === 'string') return 'must not be empty'
      if (issue.origin === 'array') return `must have at least ${issue.minimum} item(s)`
      return `must be ${issue.inclusive ? 'at least' : 'greater than'} ${issue.minimum}`
    case 'too_big':
      if (issue.origin === 'string') return `must be at most ${issue.maximum} characters`
      return `must be at most ${issue.maximum}`
    case 'invalid_value':
      return `must be one of ${issue.values.map((value) => JSON.stringify(value)).join(', ')}`
    case 'unrecognized_keys':
      return `has unknown field(s) ${issue.keys.map((key) => `"${key}"`).join(', ')}`
    default:
      return issue.message.charAt(0).toLowerCase() + issue.message.slice(1)
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

export function truncate(text: string, max = 40): string {
  return text.length > max ? `${text.slice(0, max)}…` : text
}
