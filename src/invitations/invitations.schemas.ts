import { z } from 'zod';
import { EMAIL_MAX } from '../foundation/auth/auth.schemas.ts';
import { ROLES } from '../foundation/context.ts';
import { LOCALES } from '../kernel/i18n.ts';
import { pageQuerySchema, pageSchema } from '../kernel/pagination.ts';
import { organizationSchema } from '../orgs/orgs.schemas.ts';

/** Nobody is invited as an owner: owners appoint owners among the members. */
export const INVITATION_ROLES = ['admin', 'member', 'viewer'] as const;
export const INVITATION_STATUSES = ['pending', 'accepted', 'revoked', 'expired'] as const;
export type InvitationStatus = (typeof INVITATION_STATUSES)[number];
export const BULK_INVITATION_MAX = 50;

const invitationOptions = {
  role: z.enum(INVITATION_ROLES),
  locale: z.enum(LOCALES).optional().meta({ description: 'Language of the invitation mail; en by default' }),
  grantAllPrivateProjects: z
    .boolean()
    .optional()
    .meta({ description: 'At acceptance, grant the new member every private project of the organization (default false)' }),
};

export const createInvitationBodySchema = z
  .strictObject({ email: z.email().max(EMAIL_MAX), ...invitationOptions })
  .meta({ id: 'CreateInvitationRequest', example: { email: 'grace@example.com', role: 'member', locale: 'en' } });
export type CreateInvitationInput = z.output<typeof createInvitationBodySchema>;

export const bulkInvitationBodySchema = z
  .strictObject({
    emails: z
      .array(z.string().max(EMAIL_MAX))
      .min(1)
      .max(BULK_INVITATION_MAX)
      .meta({ description: `1..${BULK_INVITATION_MAX} addresses; repeats (case-insensitive, trimmed) count once` }),
    ...invitationOptions,
  })
  .meta({ id: 'BulkInvitationRequest', example: { emails: ['grace@example.com', 'alan@example.com'], role: 'member' } });
export type BulkInvitationInput = z.output<typeof bulkInvitationBodySchema>;

export const BULK_OUTCOMES = ['created', 'duplicate_pending', 'already_member', 'invalid_email'] as const;
export type BulkOutcome = (typeof BULK_OUTCOMES)[number];

export const bulkInvitationResultSchema = z
  .object({
    results: z.array(z.object({ email: z.string(), status: z.enum(BULK_OUTCOMES) })).meta({
      description: 'One entry per distinct address, in first-appearance order',
    }),
  })
  .meta({ id: 'BulkInvitationResult' });

/** `status` as a CSV of invitation statuses; absent: every status. */
export const invitationStatusFilterSchema = z
  .string()
  .max(200)
  .transform((value) => [...new Set(value.split(',').map((part) => part.trim()))])
  .pipe(z.array(z.enum(INVITATION_STATUSES)))
  .optional()
  .meta({ description: 'Comma-separated statuses: pending, accepted, revoked, expired' });

export const invitationListQuerySchema = pageQuerySchema().extend({ status: invitationStatusFilterSchema });
export type InvitationListQuery = z.output<typeof invitationListQuerySchema>;

export const invitationPathSchema = z.object({ orgUlid: z.string(), invitationUlid: z.string() });

export const acceptInvitationBodySchema = z.strictObject({ token: z.string().min(1).max(200) }).meta({ id: 'AcceptInvitationRequest' });

export const invitationSchema = z
  .object({
    ulid: z.string(),
    email: z.string(),
    role: z.enum(INVITATION_ROLES),
    locale: z.enum(LOCALES),
    status: z.enum(INVITATION_STATUSES).meta({ description: 'A pending invitation past expiresAt reads as expired' }),
    grantAllPrivateProjects: z.boolean(),
    invitedBy: z.object({ ulid: z.string().nullable(), displayName: z.string() }),
    expiresAt: z.number().int(),
    createdAt: z.number().int(),
    emailDeliveryStatus: z.enum(['failed', 'suppressed']).nullable().meta({
      description: 'null while queued, retried or once delivered; failed after the last retry; suppressed when the address refuses mail',
    }),
  })
  .meta({ id: 'Invitation' });

export const invitationPageSchema = pageSchema(invitationSchema).meta({ id: 'InvitationPage' });

export const acceptedInvitationSchema = z
  .object({ organization: organizationSchema, role: z.enum(ROLES) })
  .meta({ id: 'AcceptedInvitation' });
