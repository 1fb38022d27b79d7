import { z } from 'zod';
import { ulidSchema } from '../kernel/validation.ts';

export const ATTACHMENT_MAX_BYTES = 10 * 1024 * 1024;
/** Files per stage request and attachments per step. */
export const ATTACHMENTS_PER_STEP = 10;

/** A key a stage request answered (of step attachments or of result attachments). */
export const stagedKeySchema = z
  .string()
  .regex(/^staging\/[0-9A-HJKMNP-TV-Z]{26}\/[0-9A-HJKMNP-TV-Z]{26}$/, 'must be a key returned by a stage request')
  .meta({ example: 'staging/01JD3Z8Q4V5W6X7Y8Z9A0B1C2D/01JD3Z8Q4V5W6X7Y8Z9A0B1C2E' });

/** A step's attachment in a steps body: a committed one by `ulid`, or a staged upload by `key`. */
export const attachmentRefSchema = z
  .union([z.strictObject({ ulid: ulidSchema }), z.strictObject({ key: stagedKeySchema })])
  .meta({ id: 'StepAttachmentRef', description: '`{ ulid }` keeps a committed attachment; `{ key }` commits a staged upload' });
export type AttachmentRef = z.output<typeof attachmentRefSchema>;

export const stepAttachmentSchema = z
  .object({
    ulid: z.string(),
    fileName: z.string(),
    contentType: z.string(),
    sizeBytes: z.number().int(),
    createdAt: z.number().int(),
  })
  .meta({ id: 'StepAttachment' });

export const stagedAttachmentSchema = z
  .object({ key: z.string(), fileName: z.string(), contentType: z.string(), sizeBytes: z.number().int() })
  .meta({ id: 'StagedAttachment' });
