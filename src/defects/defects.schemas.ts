import { z } from 'zod';
import { customFieldValueSchema, fieldValueInputSchema } from '../custom-fields/field-values.service.ts';
import { authorSchema } from '../foundation/actors.ts';
import { pageQuerySchema, pageSchema } from '../kernel/pagination.ts';
import { DEFECT_STATUSES } from '../kernel/statuses.ts';
import { distinctArray, searchQuerySchema, someFieldOf, ulidSchema } from '../kernel/validation.ts';

export const DEFECT_TITLE_MAX = 500;
export const DEFECT_DESCRIPTION_MAX = 20000;
export const EXTERNAL_URL_MAX = 2000;
/** Results linked in one create. */
export const MAX_LINKED_ON_CREATE = 500;

const title = z.string().trim().min(1).max(DEFECT_TITLE_MAX);
const description = z.string().max(DEFECT_DESCRIPTION_MAX).nullable();
const status = z.enum(DEFECT_STATUSES);
const assigneeUlid = ulidSchema.nullable().meta({ description: 'A member of the organization; null leaves the defect unassigned' });
const externalUrl = z
  .url({ protocol: /^https?$/, hostname: z.regexes.domain })
  .max(EXTERNAL_URL_MAX)
  .nullable()
  .meta({ description: 'An http(s) address in an outside tracker', example: 'https://tracker.example.com/browse/BUG-12' });
const customFieldValues = z.array(fieldValueInputSchema).max(200);

export const createDefectBodySchema = z
  .strictObject({
    title,
    description: description.optional(),
    status: status.optional().meta({ description: 'Default open' }),
    assigneeUlid: assigneeUlid.optional(),
    externalUrl: externalUrl.optional(),
    resultUlids: distinctArray(ulidSchema, MAX_LINKED_ON_CREATE)
      .optional()
      .meta({ description: 'Result attempts of runs of the same project to link at once' }),
    customFieldValues: customFieldValues.optional().meta({ description: 'Values of defect custom fields visible in the project' }),
  })
  .meta({ id: 'CreateDefectRequest' });
export type CreateDefectInput = z.output<typeof createDefectBodySchema>;

export const updateDefectBodySchema = z
  .strictObject({
    title: title.optional(),
    description: description.optional(),
    status: status.optional(),
    assigneeUlid: assigneeUlid.optional(),
    externalUrl: externalUrl.optional(),
    customFieldValues: customFieldValues.optional(),
  })
  .refine(...someFieldOf(['title', 'description', 'status', 'assigneeUlid', 'externalUrl', 'customFieldValues']))
  .meta({ id: 'UpdateDefectRequest', description: 'At least one field; description, assigneeUlid and externalUrl take null to clear' });
export type UpdateDefectInput = z.output<typeof updateDefectBodySchema>;

/** The defect list filters (REST query and the GraphQL connection's arguments). */
export const defectFilterSchema = searchQuerySchema.extend({
  status: z
    .union([z.string().max(200), z.array(z.string().max(200)).max(10)])
    .optional()
    .transform((value) => [
      ...new Set(
        [value ?? []]
          .flat()
          .flatMap((part) => part.split(','))
          .filter((token) => token !== ''),
      ),
    ])
    .pipe(z.array(status))
    .meta({ description: 'CSV (or repeated) of open, in_progress, resolved, closed' }),
  assigneeUlid: z
    .union([z.literal(''), ulidSchema])
    .optional()
    .meta({
      description: 'Defects assigned to this user; empty: unassigned defects',
    }),
});
export type DefectFilter = z.output<typeof defectFilterSchema>;

export const defectListQuerySchema = pageQuerySchema().extend(defectFilterSchema.shape);
export type DefectListQuery = z.output<typeof defectListQuerySchema>;

export const defectPathSchema = z.object({ defectUlid: z.string() });
export const defectLinkPathSchema = z.object({ defectUlid: z.string(), resultUlid: z.string() });
export const linkResultBodySchema = z.strictObject({ resultUlid: ulidSchema }).meta({ id: 'LinkDefectResultRequest' });
export const linkedResultListQuerySchema = pageQuerySchema();

export const defectSchema = z
  .object({
    ulid: z.string(),
    projectUlid: z.string(),
    defectNumber: z.number().int().meta({ description: 'Gapless per project, never reused' }),
    title: z.string(),
    description: z.string().nullable(),
    status,
    assigneeUlid: z.string().nullable(),
    externalUrl: z.string().nullable(),
    author: authorSchema,
    customFieldValues: z.array(customFieldValueSchema),
    createdAt: z.number().int(),
    updatedAt: z.number().int(),
  })
  .meta({ id: 'Defect' });

export const defectPageSchema = pageSchema(defectSchema).meta({
  id: 'DefectPage',
  description: 'Newest first (highest defectNumber first)',
});

export const linkedResultSchema = z
  .object({
    resultUlid: z.string(),
    runUlid: z.string(),
    runTitle: z.string(),
    runCaseUlid: z.string().nullable().meta({ description: 'Null once the case was removed from the run' }),
    caseDisplayId: z.string().nullable().meta({ description: 'Null once the case was removed from the run' }),
    status: z.string(),
    executedAt: z.number().int(),
    linkedAt: z.number().int(),
  })
  .meta({ id: 'DefectLinkedResult' });

export const linkedResultPageSchema = pageSchema(linkedResultSchema).meta({
  id: 'DefectLinkedResultPage',
  description: 'Most recently executed first',
});

/** A run case detail's `linkedDefects[]` entry. */
export const linkedDefectSchema = z
  .object({
    ulid: z.string(),
    defectNumber: z.number().int(),
    title: z.string(),
    status,
    assigneeUlid: z.string().nullable(),
  })
  .meta({ id: 'LinkedDefect' });
