import * as z from 'zod/mini'

// Fixtures and scenario files name things (plans, keys) that the sandbox then looks up by
// name in plain objects. A lookup must see the file's own names only: `plans.constructor`
// of a plain object is Object, and a key on a plan named "constructor" would pass every
// check and be unlimited (issue 21).

/** The value a plain object holds under `name` itself, never one inherited from Object. */
export function ownValue<T>(
  record: Readonly<Record<string, T>> | undefined,
  name: string,
): T | undefined {
  return record !== undefined && Object.hasOwn(record, name) ? record[name] : undefined
}

/** Whether a plain object holds `name` itself (not Object's `constructor`, `toString`...). */
export function hasOwnName(record: object | undefined, name: string): boolean {
  return record !== undefined && Object.hasOwn(record, name)
}

/**
 * A record of a fixtures or scenario file (plans, keys): as `z.record`, but a name
 * `__proto__` is an error naming it. A parser drops it silently (assigning it would
 * replace the prototype), so without this a plan or key of that name would vanish.
 */
export function ownRecord<
  Key extends z.core.$ZodRecordKey,
  Value extends z.core.SomeType,
>(key: Key, value: Value) {
  return z.pipe(
    z.custom<unknown>((input) => !hasOwnName(asObject(input), '__proto__'), {
      message: `${PROTO_NAME_REASON}; rename it`,
    }),
    z.record(key, value),
  )
}

/** What a record that names something "__proto__" is told. */
export const PROTO_NAME_REASON =
  'must not name anything "__proto__": JavaScript objects cannot hold that name, so it would be lost'

/**
 * The first record of `data` (each given by its path of fields) that names something
 * "__proto__", as "rateLimits.plans", or undefined. For data read before a schema that
 * must stay a plain record (an OpenAPI document shows it), where {@link ownRecord}'s
 * pipe would hide the record's shape.
 */
export function protoNamedRecord(
  data: unknown,
  paths: readonly (readonly string[])[],
): string | undefined {
  for (const path of paths) {
    let node = asObject(data)
    for (const field of path) {
      node = hasOwnName(node, field)
        ? asObject((node as Record<string, unknown>)[field])
        : undefined
    }
    if (hasOwnName(node, '__proto__')) return path.join('.')
  }
  return undefined
}

function asObject(input: unknown): object | undefined {
  return typeof input === 'object' && input !== null ? input : undefined
}
