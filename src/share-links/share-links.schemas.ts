import { z } from 'zod';
import { epochMsSchema } from '../milestones/milestones.schemas.ts';
import { runCaseSchema } from '../runs/run-cases.schemas.ts';
import { countsSchema, runPathSchema, runResponseSchema } from '../runs/runs.schemas.ts';

/** The furthest a link's expiry may lie ahead (contract §15 leaves the bound to us). */
export const SHARE_LINK_MAX_LIFETIME_MS = 366 * 24 * 60 * 60 * 1000;
/** Live links one run may have at once: revoke one to make another. */
export const SHARE_LINKS_PER_RUN = 20;
/** Requests per minute one client address may make to the public share routes, all together. */
export const PUBLIC_SHARE_REQUESTS_PER_MINUTE = 120;

export const createShareLinkBodySchema = z
  .strictObject({
    expiresAt: epochMsSchema.optional().meta({
      description: 'Epoch ms, in the future and at most 366 days ahead; omitted: the link never expires',
      example: 1_798_761_600_000,
    }),
  })
  .meta({ id: 'CreateShareLinkRequest' });
export type CreateShareLinkInput = z.output<typeof createShareLinkBodySchema>;

export const shareLinkPathSchema = runPathSchema.extend({ shareLinkUlid: z.string() });
export const publicRunPathSchema = z.object({ token: z.string().meta({ description: 'The token of a share link' }) });

export const shareLinkSchema = z
  .object({
    ulid: z.string(),
    runUlid: z.string(),
    createdAt: z.number().int(),
    expiresAt: z.number().int().nullable().meta({ description: 'Null: never expires' }),
  })
  .meta({ id: 'ShareLink' });

export const createdShareLinkSchema = z
  .object({
    ulid: z.string(),
    token: z.string().meta({ description: 'The secret of the link, shown only in this answer' }),
    url: z.string().meta({ description: 'The public page: <TCMS_PUBLIC_URL>/share/runs/<token>' }),
    createdAt: z.number().int(),
    expiresAt: z.number().int().nullable(),
  })
  .meta({ id: 'CreatedShareLink' });

export const shareLinkListSchema = z.object({ items: z.array(shareLinkSchema) }).meta({ id: 'ShareLinkList' });

export const publicRunSchema = z
  .object({
    name: z.string(),
    state: runResponseSchema.shape.state,
    counts: countsSchema,
    passRate: runResponseSchema.shape.passRate,
    configurations: z.array(z.object({ groupName: z.string(), valueName: z.string() })),
    environmentName: z.string().nullable().meta({ description: "The run's environment, or its legacy free-text one" }),
    cases: z.array(
      z.object({
        displayId: z.string(),
        title: z.string(),
        status: runCaseSchema.shape.status,
        elapsedMs: z.number().int().nullable(),
      }),
    ),
  })
  .meta({ id: 'PublicRun', description: 'What a share link shows of a run, and nothing else' });
export type PublicRun = z.output<typeof publicRunSchema>;
