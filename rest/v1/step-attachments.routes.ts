import { z } from 'zod';
import { ulidSchema } from '../../src/kernel/validation.ts';
import { ATTACHMENT_MAX_BYTES, ATTACHMENTS_PER_STEP, stagedAttachmentSchema } from '../../src/test-cases/attachments.schemas.ts';
import { deleteAttachment, readAttachment, stageAttachments } from '../../src/test-cases/attachments.service.ts';
import { defineRoute, fileReply, Reply } from '../route.ts';

const casePath = z.object({ caseUlid: z.string() });
const attachmentPath = z.object({ caseUlid: z.string(), attachmentUlid: ulidSchema });

export const stepAttachmentRoutes = [
  defineRoute({
    method: 'post',
    path: '/test-cases/{caseUlid}/step-attachments:stage',
    operationId: 'stageStepAttachments',
    summary: `Stage step attachments (up to ${ATTACHMENTS_PER_STEP} \`file\` parts of at most 10 MiB); list their keys in a step's attachments to commit them`,
    tag: 'Test cases',
    auth: 'org',
    params: casePath,
    upload: { maxBytes: ATTACHMENT_MAX_BYTES, maxFiles: ATTACHMENTS_PER_STEP, description: 'Any file' },
    success: {
      status: 201,
      description: 'The staged objects (no database row until committed)',
      schema: z.object({ items: z.array(stagedAttachmentSchema) }).meta({ id: 'StagedAttachments' }),
    },
    errors: [403, 404, 413, 415],
    handle: ({ ctx, params, files }) => stageAttachments(ctx, params.caseUlid, files),
  }),
  defineRoute({
    method: 'get',
    path: '/test-cases/{caseUlid}/step-attachments/{attachmentUlid}',
    operationId: 'downloadStepAttachment',
    summary: 'Download one committed step attachment',
    tag: 'Test cases',
    auth: 'org',
    params: attachmentPath,
    success: { status: 200, description: 'The file, with its stored content type' },
    errors: [403, 404],
    handle: async ({ ctx, params }) => fileReply(await readAttachment(ctx, params.caseUlid, params.attachmentUlid)),
  }),
  defineRoute({
    method: 'delete',
    path: '/test-cases/{caseUlid}/step-attachments/{attachmentUlid}',
    operationId: 'deleteStepAttachment',
    summary: 'Remove one committed step attachment',
    tag: 'Test cases',
    auth: 'org',
    params: attachmentPath,
    success: { status: 204, description: 'Removed' },
    errors: [403, 404],
    handle: async ({ ctx, params }) => {
      await deleteAttachment(ctx, params.caseUlid, params.attachmentUlid);
      return new Reply(204, undefined);
    },
  }),
];
