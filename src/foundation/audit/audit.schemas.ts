import { z } from 'zod';
import { queryInteger, ulidSchema } from '../../kernel/validation.ts';

export const AUDIT_LIMIT_CAP = 100;

export const auditListQuerySchema = z.object({
  limit: queryInteger(1, Number.MAX_SAFE_INTEGER)
    .transform((value) => Math.min(value, AUDIT_LIMIT_CAP))
    .optional()
    .default(50)
    .meta({ description: 'Page size, default 50; values above 100 are capped to 100' }),
  cursor: ulidSchema.optional().meta({ description: 'Return events with a ULID below this one' }),
});
export type AuditListQuery = z.output<typeof auditListQuerySchema>;

export const auditEventSchema = z
  .object({
    ulid: z.string(),
    action: z.string(),
    actor: z.union([
      z.object({ kind: z.literal('user'), ulid: z.string().nullable(), email: z.string().nullable(), displayName: z.string().nullable() }),
      z.object({ kind: z.literal('api_token'), ulid: z.string().nullable(), name: z.string().nullable() }),
      z.object({ kind: z.literal('system') }),
    ]),
    entityType: z.string(),
    entityUlid: z.string(),
    entityLabel: z.string(),
    runUlid: z.string().nullable(),
    metadata: z.record(z.string(), z.unknown()),
    createdAt: z.number().int(),
  })
  .meta({ id: 'AuditEvent', description: 'AuditEventOut; `changes` entries carry scalars' });

export const auditPageSchema = z
  .object({ events: z.array(auditEventSchema), nextCursor: z.string().nullable() })
  .meta({ id: 'AuditEventPage' });
