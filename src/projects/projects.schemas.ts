import { z } from 'zod';
import { unreadableRequest, validationFailed } from '../kernel/errors.ts';
import { ULID_PATTERN } from '../kernel/ids.ts';
import { pageQuerySchema, pageSchema } from '../kernel/pagination.ts';
import { searchQuerySchema } from '../kernel/validation.ts';

export const PROJECT_CODE_PATTERN = /^[A-Z][A-Z0-9]*$/;

/** The largest avatar upload; it is stored as a 256×256 WebP. */
export const AVATAR_MAX_BYTES = 5 * 1024 * 1024;

/** Display IDs of the contract: case `<CODE>-<n>`, suite `<CODE>-S<n>`. */
export const caseDisplayId = (projectCode: string, caseNumber: number) => `${projectCode}-${caseNumber}`;
export const suiteDisplayId = (projectCode: string, suiteNumber: number) => `${projectCode}-S${suiteNumber}`;

const PATTERNS = {
  case: /^([A-Z][A-Z0-9]*)-([1-9][0-9]*)$/,
  suite: /^([A-Z][A-Z0-9]*)-S([1-9][0-9]*)$/,
} as const;

/**
 * The number a display ID names within `projectCode`: a malformed ID answers 422
 * validation_failed, a well-formed one with another project's prefix 400 validation_failed.
 */
export function parseDisplayId(displayId: string, projectCode: string, kind: 'case' | 'suite'): number {
  const match = PATTERNS[kind].exec(displayId);
  const number = match ? Number(match[2]) : NaN;
  if (!match || !Number.isSafeInteger(number)) {
    const shape = kind === 'case' ? '<projectCode>-<number>' : '<projectCode>-S<number>';
    throw validationFailed(`displayId must look like ${shape}`, { path: ['displayId'] });
  }
  if (match[1] !== projectCode) {
    throw unreadableRequest('foreign_display_id', `displayId ${displayId} does not belong to project ${projectCode}`, {
      path: ['displayId'],
    });
  }
  return number;
}

const name = z.string().min(1).max(200);
const description = z.string().max(2000).nullable();

export const createProjectBodySchema = z
  .strictObject({
    name,
    id: z.string().min(1).max(50).regex(PROJECT_CODE_PATTERN, 'must match ^[A-Z][A-Z0-9]*$').meta({ example: 'WEB' }),
    description: description.optional(),
  })
  .meta({ id: 'CreateProjectRequest' });
export type CreateProjectInput = z.output<typeof createProjectBodySchema>;

// `id` is accepted by the parser so that the service can answer 422 immutable_field for it.
export const updateProjectBodySchema = z
  .strictObject({ name: name.optional(), description: description.optional(), id: z.unknown().optional() })
  .meta({ id: 'UpdateProjectRequest', description: 'At least one of name, description; `id` answers 422 immutable_field' });
export type UpdateProjectInput = z.output<typeof updateProjectBodySchema>;

/**
 * A CSV filter that may also be repeated (`runs=any,active` or `runs=any&runs=active`). Unknown
 * tokens are dropped; a filter left with no known token is absent.
 */
const csvFilter = <T extends string>(isKnown: (token: string) => token is T, description: string) =>
  z
    .union([z.string().max(2000), z.array(z.string().max(2000)).max(50)])
    .optional()
    .transform((value) => {
      const known = [value ?? []]
        .flat()
        .flatMap((part) => part.split(','))
        .map((token) => token.trim())
        .filter(isKnown);
      return known.length > 0 ? [...new Set(known)] : undefined;
    })
    .meta({ description });

const tokenFilter = <T extends string>(tokens: readonly T[], description: string) =>
  csvFilter((token): token is T => (tokens as readonly string[]).includes(token), description);

export const projectListQuerySchema = pageQuerySchema()
  .extend(searchQuerySchema.shape)
  .extend({
    include: z.enum(['stats']).optional().meta({ description: 'Only `stats`: adds stats, team and teamCount to each item' }),
    memberUlid: csvFilter(
      (token): token is string => ULID_PATTERN.test(token),
      'CSV of user ULIDs: projects whose team includes any of them (unknown ULIDs dropped)',
    ),
    runs: tokenFilter(['without', 'active', 'any'] as const, 'without, active (an open run), any (at least one run)'),
    defects: tokenFilter(['has', 'without'] as const, 'has (an unresolved defect), without'),
    milestones: tokenFilter(['has', 'without'] as const, 'has (a live milestone), without'),
    cases: tokenFilter(['has', 'without'] as const, 'has (a non-archived case), without'),
  });
export type ProjectListQuery = z.output<typeof projectListQuerySchema>;

/** The GraphQL project connection's filters: `q` and `memberUlid` as the REST list reads them. */
export const projectConnectionFilterSchema = projectListQuerySchema.pick({ q: true, memberUlid: true });
export type ProjectConnectionFilter = z.output<typeof projectConnectionFilterSchema>;

export const projectPathSchema = z.object({ projectId: z.string().meta({ description: 'The project code' }) });

export const projectSchema = z
  .object({
    ulid: z.string(),
    name: z.string(),
    id: z.string(),
    description: z.string().nullable(),
    avatarKey: z.string().nullable(),
    avatarVersion: z.number().int().min(0),
    lockedAt: z.number().int().nullable(),
    createdAt: z.number().int(),
    updatedAt: z.number().int(),
  })
  .meta({ id: 'Project' });

const teamMemberSchema = z.object({
  userUlid: z.string(),
  firstName: z.string(),
  lastName: z.string(),
  avatarKey: z.string().nullable(),
  avatarVersion: z.number().int(),
});

export const projectListItemSchema = projectSchema
  .extend({
    stats: z
      .object({
        cases: z.number().int(),
        runs: z.number().int(),
        runsInProgress: z.number().int(),
        defectsUnresolved: z.number().int(),
        milestones: z.number().int(),
      })
      .optional(),
    team: z.array(teamMemberSchema).max(4).optional(),
    teamCount: z.number().int().optional(),
  })
  .meta({ id: 'ProjectListItem', description: 'stats, team and teamCount only with include=stats' });

export const projectPageSchema = pageSchema(projectListItemSchema).meta({ id: 'ProjectPage' });

export const avatarSchema = z
  .object({ avatarKey: z.string().nullable(), avatarVersion: z.number().int().min(0) })
  .meta({ id: 'ProjectAvatar' });
