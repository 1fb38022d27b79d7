import { z } from 'zod';
import {
  commitResultAttachments,
  deleteResultAttachment,
  readResultAttachment,
  stageResultAttachments,
} from '../../src/runs/result-attachments.service.ts';
import {
  commitResultAttachmentsBodySchema,
  resultAttachmentPathSchema,
  resultAttachmentSchema,
  resultPathSchema,
} from '../../src/runs/run-cases.schemas.ts';
import { ATTACHMENT_MAX_BYTES, ATTACHMENTS_PER_STEP, stagedAttachmentSchema } from '../../src/test-cases/attachments.schemas.ts';
import { defineRoute, fileReply, Reply } from '../route.ts';

const base = '/runs/{runUlid}/cases/{runCaseUlid}/results/{resultUlid}/attachments';

export const resultAttachmentRoutes = [
  defineRoute({
    method: 'post',
    path: `${base}:stage`,
    operationId: 'stageResultAttachments',
    summary: `Stage files for a result (up to ${ATTACHMENTS_PER_STEP} \`file\` parts of at most 10 MiB); commit their keys with POST …/attachments`,
    tag: 'Runs',
    auth: 'org',
    params: resultPathSchema,
    upload: { maxBytes: ATTACHMENT_MAX_BYTES, maxFiles: ATTACHMENTS_PER_STEP, description: 'Any file' },
    success: {
      status: 201,
      description: 'The staged objects (no attachment until committed)',
      schema: z.object({ items: z.array(stagedAttachmentSchema) }).meta({ id: 'StagedResultAttachments' }),
    },
    errors: [403, 404, 409, 413, 415],
    handle: ({ ctx, params, files }) => stageResultAttachments(ctx, params, files),
  }),
  defineRoute({
    method: 'post',
    path: base,
    operationId: 'commitResultAttachments',
    summary: 'Attach staged uploads to a result, optionally at one of the run case steps',
    tag: 'Runs',
    auth: 'org',
    params: resultPathSchema,
    body: commitResultAttachmentsBodySchema,
    success: {
      status: 201,
      description: 'The attachments committed',
      schema: z.object({ items: z.array(resultAttachmentSchema) }).meta({ id: 'ResultAttachments' }),
    },
    errors: [403, 404, 409],
    handle: ({ ctx, params, body }) => commitResultAttachments(ctx, params, body),
  }),
  defineRoute({
    method: 'get',
    path: `${base}/{attachmentUlid}`,
    operationId: 'downloadResultAttachment',
    summary: 'Download one result attachment',
    tag: 'Runs',
    auth: 'org',
    params: resultAttachmentPathSchema,
    success: { status: 200, description: 'The file, with its stored content type' },
    errors: [403, 404],
    handle: async ({ ctx, params }) => fileReply(await readResultAttachment(ctx, params)),
  }),
  defineRoute({
    method: 'delete',
    path: `${base}/{attachmentUlid}`,
    operationId: 'deleteResultAttachment',
    summary: 'Remove one result attachment',
    tag: 'Runs',
    auth: 'org',
    params: resultAttachmentPathSchema,
    success: { status: 204, description: 'Removed' },
    errors: [403, 404, 409],
    handle: async ({ ctx, params }) => {
      await deleteResultAttachment(ctx, params);
      return new Reply(204, undefined);
    },
  }),
];
