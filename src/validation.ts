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

/** A positive integer carried in a query string: "2" yes; "2.0", "1e1", "" no. */
export const queryInteger = (min: number, max: number) =>
  z
    .string()
    .regex(/^\d+$/, 'must be an integer')
    .transform(Number)
    .pipe(z.number().int().min(min).max(max));

export const MAX_PAGE_SIZE = 200;

/** `page`/`pageSize` of the contract's page pagination (pageSize default 50, plan list 20). */
export const pageQuerySchema = (defaultPageSize = 50) =>
  z.object({
    page: queryInteger(1, Number.MAX_SAFE_INTEGER).optional().default(1),
    pageSize: queryInteger(1, MAX_PAGE_SIZE).optional().default(defaultPageSize),
  });

export const searchQuerySchema = z.object({
  q: z.string().max(200).optional().meta({ description: 'Case-insensitive substring search' }),
});

/**
 * `q` as a literal substring for Prisma's `contains`, which builds a LIKE pattern without
 * escaping: `%` and `_` would otherwise act as wildcards (and `\` as the escape).
 */
export const likeLiteral = (q: string) => q.replace(/[\\%_]/g, '\\$&');

export type PageQuery = { page: number; pageSize: number };

export function pageWindow({ page, pageSize }: PageQuery) {
  return { skip: (page - 1) * pageSize, take: pageSize };
}

export const pageOf = <T>(items: T[], query: PageQuery, total: number) => ({
  items,
  page: query.page,
  pageSize: query.pageSize,
  total,
});

export const pageSchema = <T extends z.ZodType>(item: T) =>
  z.object({ items: z.array(item), page: z.number().int(), pageSize: z.number().int(), total: z.number().int() });

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

/** `limit`/`cursor` of the contract's cursor pagination (limit default 50, max 200). */
export const cursorQuerySchema = z.object({
  limit: queryInteger(1, MAX_PAGE_SIZE).optional().default(50).meta({ description: 'Page size, 1..200, default 50' }),
  cursor: ulidSchema.optional().meta({ description: 'The nextCursor of the previous page' }),
});
export type CursorQuery = z.output<typeof cursorQuerySchema>;

/** A cursor page from rows read with `take: limit + 1`: the extra row only says that more follow. */
export function cursorPageOf<T extends { id: string }>(rows: T[], limit: number): { items: T[]; nextCursor: string | null } {
  const items = rows.slice(0, limit);
  return { items, nextCursor: rows.length > limit ? (items.at(-1)?.id ?? null) : null };
}

export const cursorPageSchema = <T extends z.ZodType>(item: T) =>
  z.object({ items: z.array(item), nextCursor: z.string().nullable() });

/**
 * A PATCH body must change something: a refinement for `z.strictObject` patches (an empty body
 * answers 422 validation_failed).
 */
export const someFieldOf = (fields: string[]) =>
  [
    (patch: Record<string, unknown>) => Object.values(patch).some((value) => value !== undefined),
    { message: `Provide at least one of ${fields.join(', ')}` },
  ] as const;
