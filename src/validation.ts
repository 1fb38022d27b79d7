import { z } from 'zod';
import { fromValidationIssues } from './errors.ts';
import { ULID_PATTERN } from './ids.ts';

export const ulidSchema = z.string().regex(ULID_PATTERN, 'must be a ULID').meta({ example: '01JD3Z8Q4V5W6X7Y8Z9A0B1C2D' });

/** An array of at most `max` entries that must not repeat (the contract's "no duplicates": 422). */
export const distinctArray = <T extends z.ZodType>(item: T, max: number) =>
  z
    .array(item)
    .max(max)
    .refine((entries) => new Set(entries).size === entries.length, { message: 'must not repeat an entry' });

/**
 * A positive integer carried in a query string: "2" yes; "2.0", "1e1", "" no. Only digit strings
 * become numbers before the check, which OpenAPI documents as the integer it is.
 */
export const queryInteger = (min: number, max: number) =>
  z.preprocess(
    (value) => (typeof value === 'string' && /^\d+$/.test(value) ? Number(value) : value),
    z.int({ error: (issue) => (issue.code === 'invalid_type' ? 'must be an integer' : undefined) }).min(min).max(max),
  );

export const searchQuerySchema = z.object({
  q: z.string().max(200).optional().meta({ description: 'Case-insensitive substring search' }),
});

/**
 * `q` as a literal substring for Prisma's `contains`, which builds a LIKE pattern without
 * escaping: `%` and `_` would otherwise act as wildcards (and `\` as the escape).
 */
export const likeLiteral = (q: string) => q.replace(/[\\%_]/g, '\\$&');

/** Parses with a zod schema; a failure is the contract's 422 validation_failed. */
export function validate<S extends z.ZodType>(
  schema: S,
  value: unknown,
  location?: 'query' | 'params' | 'body',
): z.output<S> {
  const nul = findNulCharacter(value, []);
  if (nul) throw fromValidationIssues([{ path: nul, message: 'must not contain the NUL character' }], location);
  const result = schema.safeParse(value);
  if (!result.success) throw fromValidationIssues(result.error.issues, location);
  return result.data;
}

/** PostgreSQL text cannot hold U+0000, so no input string may carry it; returns its path. */
function findNulCharacter(value: unknown, path: PropertyKey[]): PropertyKey[] | null {
  if (typeof value === 'string') return value.includes('\u0000') ? path : null;
  if (value === null || typeof value !== 'object') return null;
  for (const [key, inner] of Object.entries(value)) {
    const found = findNulCharacter(inner, [...path, Array.isArray(value) ? Number(key) : key]);
    if (found) return found;
  }
  return null;
}

/**
 * A PATCH body must change something: a refinement for `z.strictObject` patches (an empty body
 * answers 422 validation_failed).
 */
export const someFieldOf = (fields: string[]) =>
  [
    (patch: Record<string, unknown>) => Object.values(patch).some((value) => value !== undefined),
    { message: `Provide at least one of ${fields.join(', ')}` },
  ] as const;
