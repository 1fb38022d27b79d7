import { z } from 'zod';

const DAY_MS = 24 * 60 * 60 * 1000;
export const AUDIT_EXPORT_MAX_DAYS = 366;
export const AUDIT_EXPORT_MAX_EVENTS = 25_000;
export const AUDIT_EXPORT_CALLS_PER_HOUR = 10;

const ISO_UTC = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::(\d{2})(?:\.\d{1,9})?)?Z$/;

/** An ISO-8601 instant in UTC ending in Z, with a time of day; bare dates and offsets are refused. */
const utcInstant = (description: string, example: string) =>
  z
    .string()
    .regex(ISO_UTC, 'must be an ISO-8601 UTC instant ending in Z, e.g. 2026-01-01T00:00:00Z')
    .transform((text, context) => {
      const date = new Date(text);
      // Date accepts 2026-02-30 as 2 March; the calendar date must read back unchanged.
      if (Number.isNaN(date.getTime()) || date.toISOString().slice(0, 10) !== text.slice(0, 10)) {
        context.addIssue({ code: 'custom', message: 'is not a real date' });
        return z.NEVER;
      }
      return date;
    })
    .meta({ description, example });

export const auditExportQuerySchema = z
  .object({
    from: utcInstant('Start of the window (inclusive)', '2026-01-01T00:00:00Z'),
    to: utcInstant('End of the window (exclusive)', '2026-02-01T00:00:00Z'),
  })
  .superRefine(({ from, to }, context) => {
    // Runs after a failed bound too (a regex issue does not stop zod): then there is nothing to compare.
    if (!(from instanceof Date) || !(to instanceof Date)) return;
    if (to <= from) context.addIssue({ code: 'custom', path: ['to'], message: 'must be after from' });
    else if (to.getTime() - from.getTime() > AUDIT_EXPORT_MAX_DAYS * DAY_MS) {
      context.addIssue({ code: 'custom', path: ['to'], message: `the window may span at most ${AUDIT_EXPORT_MAX_DAYS} days` });
    }
  });
export type AuditExportWindow = z.output<typeof auditExportQuerySchema>;

export const projectExportQuerySchema = z.object({
  format: z.enum(['csv', 'json']).optional().default('json').meta({ description: 'csv or json (default)' }),
});
export type ProjectExportFormat = z.output<typeof projectExportQuerySchema>['format'];

/** The CSV columns of the audit export, in order (api-v1 "Export rules"). */
export const AUDIT_EXPORT_COLUMNS = [
  'created_at',
  'event_ulid',
  'action',
  'actor_kind',
  'actor_ulid',
  'actor_label',
  'entity_type',
  'entity_ulid',
  'entity_label',
  'run_ulid',
  'metadata',
] as const;
