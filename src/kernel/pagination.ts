import { z } from 'zod';
import { queryInteger, ulidSchema } from './validation.ts';

export const MAX_PAGE_SIZE = 200;

/** `page`/`pageSize` of the contract's page pagination (pageSize default 50, plan list 20). */
export const pageQuerySchema = (defaultPageSize = 50) =>
  z.object({
    page: queryInteger(1, Number.MAX_SAFE_INTEGER).optional().default(1).meta({ description: 'Page number, from 1' }),
    pageSize: queryInteger(1, MAX_PAGE_SIZE)
      .optional()
      .default(defaultPageSize)
      .meta({ description: `Items per page, 1..${MAX_PAGE_SIZE}` }),
  });

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

/** `limit`/`cursor` of the contract's cursor pagination (limit default 50, max 200). */
export const cursorQuerySchema = z.object({
  limit: queryInteger(1, MAX_PAGE_SIZE)
    .optional()
    .default(50)
    .meta({ description: `Items per page, 1..${MAX_PAGE_SIZE}` }),
  cursor: ulidSchema.optional().meta({ description: 'The nextCursor of the previous page' }),
});
export type CursorQuery = z.output<typeof cursorQuerySchema>;

/** A cursor page from rows read with `take: limit + 1`: the extra row only says that more follow. */
export function cursorPageOf<T extends { id: string }>(rows: T[], limit: number): { items: T[]; nextCursor: string | null } {
  const items = rows.slice(0, limit);
  return { items, nextCursor: rows.length > limit ? (items.at(-1)?.id ?? null) : null };
}

export const cursorPageSchema = <T extends z.ZodType>(item: T) => z.object({ items: z.array(item), nextCursor: z.string().nullable() });
